package lab.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JDK the services run on: as the scenario or {@code --jdk} named it ({@code 21}, {@code 25} or a path), where it
 * was found, and its feature version. When a run compares several, each variant's rows carry {@link #label()}.
 *
 * @param spec what the person asked for
 * @param home the JDK's home (its {@code bin/java} starts the services, its {@code bin/jcmd} reaches them)
 * @param feature the feature version its {@code release} file names (21, 25); 0 when it names none
 */
public record Jdk(String spec, Path home, int feature) {

	private static final Pattern RELEASE_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

	/** The JDK at {@code home}, its feature version read from its {@code release} file. */
	public static Jdk at(String spec, Path home) {
		return new Jdk(spec, home, feature(home));
	}

	/** The feature version a JDK home's {@code release} file names, or 0. */
	public static int feature(Path home) {
		try {
			Matcher matcher = RELEASE_VERSION.matcher(Files.readString(home.resolve("release")));
			return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
		}
		catch (java.io.IOException | RuntimeException ex) {
			return 0;
		}
	}

	/** How rows name a variant on this JDK when a run compares several: {@code jdk21}. */
	public String label() {
		return "jdk" + this.feature;
	}

}
