package lab.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.layout.LevelDir;

/**
 * Every level of a service the runner starts records {@code jdk.VirtualThreadPinned} alone, with its stack trace,
 * from before the load starts to after it ends ({@code pinned.jfr}, started and stopped by the service's own JDK's
 * {@code jcmd}): which frame pinned a virtual thread to its carrier, and for how long. The threshold is the one the
 * services' pinned counter uses ({@code lab.pinned-threshold}, 1 ms by default), so the two agree. The event costs
 * nothing until a thread pins; the jcmd calls fall before and after the load, outside the window.
 */
public final class PinnedRecording {

	/** The recording's name inside the service's JVM. */
	public static final String NAME = "lab-pinned";

	static final String EVENT = "jdk.VirtualThreadPinned";

	private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h)");

	private final Path settings;

	private PinnedRecording(Path settings) {
		this.settings = settings;
	}

	/**
	 * A recording at the threshold {@code -Dlab.pinned-threshold} sets among the services' JVM flags (else 1 ms): its
	 * JFR settings written once to a temporary file, removed when the runner exits.
	 */
	public static PinnedRecording of(List<String> serviceJvmFlags) {
		String threshold = "1 ms";
		for (String flag : serviceJvmFlags) {
			if (flag.startsWith("-Dlab.pinned-threshold=")) {
				threshold = jfrDuration(flag.substring("-Dlab.pinned-threshold=".length()));
			}
		}
		try {
			Path file = Files.createTempFile("loom-lab-pinned", ".jfc");
			file.toFile().deleteOnExit();
			Files.writeString(file, settings(threshold));
			return new PinnedRecording(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** JFR's settings file: the one event, with stack traces, at the threshold. */
	static String settings(String threshold) {
		return """
				<?xml version="1.0" encoding="UTF-8"?>
				<configuration version="2.0" label="lab-pinned" description="Pinned virtual threads only, with stack traces">
				  <event name="%s">
				    <setting name="enabled">true</setting>
				    <setting name="stackTrace">true</setting>
				    <setting name="threshold">%s</setting>
				  </event>
				</configuration>
				""".formatted(EVENT, threshold);
	}

	/** Spring's duration ({@code 1ms}, {@code 20ms}, {@code 0ms}) as JFR writes one ({@code 1 ms}). */
	static String jfrDuration(String value) {
		Matcher matcher = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
		return matcher.matches() ? matcher.group(1) + " " + matcher.group(2) : "1 ms";
	}

	/** {@code jcmd} arguments that start the recording. */
	public List<String> start() {
		return List.of("JFR.start", "name=" + NAME, "settings=" + this.settings.toAbsolutePath());
	}

	/** {@code jcmd} arguments that stop it into the level's directory. */
	public static List<String> stop(Path dir) {
		return List.of("JFR.stop", "name=" + NAME, "filename=" + dir.resolve(LevelDir.PINNED_RECORDING).toAbsolutePath());
	}

}
