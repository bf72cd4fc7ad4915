package lab.common;

import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/** A size setting as the environment gives it, for the servers' read-backs. */
final class Sizes {

	private Sizes() {
	}

	/** The setting {@code property} in bytes ({@code 4KB}, {@code 512B}), or {@code unset} when nothing sets it. */
	static int bytes(Environment environment, String property, int unset) {
		DataSize size = environment.getProperty(property, DataSize.class);
		return (size != null) ? (int) size.toBytes() : unset;
	}

}
