package lab.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import lab.layout.LevelDir;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * {@code ./lab run --jfr}: a Java Flight Recorder recording of each level's steady window ({@code steady.jfr},
 * JFR's {@code profile} settings, started and stopped by {@code jcmd}), and what it says in text: the JDK's own
 * views of it ({@code jfr view}: hot methods, allocation by site, GC pauses, pinned virtual threads, lock
 * contention) in {@code jfr-summary.txt}, and the CPU samples as collapsed stacks ({@code cpu-stacks.collapsed},
 * one "root;...;leaf count" line per stack, what flame graph tools such as flamegraph.pl or speedscope read) and
 * drawn as a flame graph ({@code cpu-flame.svg}).
 */
public final class SteadyRecording {

	/** Given to the services of a {@code --jfr} run: whole stacks for the flame graph (JFR keeps 64 frames by default). */
	public static final String STACK_DEPTH_FLAG = "-XX:FlightRecorderOptions:stackdepth=256";

	/** The recording's name inside the service's JVM. */
	public static final String NAME = "lab-steady";

	static final List<String> VIEWS = List.of("hot-methods", "allocation-by-site", "gc-pauses", "pinned-threads", "contention-by-site");

	private SteadyRecording() {
	}

	/** {@code jcmd} arguments that start the recording. */
	public static List<String> start() {
		return List.of("JFR.start", "name=" + NAME, "settings=profile");
	}

	/** {@code jcmd} arguments that stop it into the level's directory. */
	public static List<String> stop(Path dir) {
		return List.of("JFR.stop", "name=" + NAME, "filename=" + dir.resolve(LevelDir.JFR_RECORDING).toAbsolutePath());
	}

	/** Writes the summary and the collapsed stacks beside the recording; false when there is no recording. */
	public static boolean summarise(Path javaHome, Path dir) throws IOException, InterruptedException {
		Path recording = dir.resolve(LevelDir.JFR_RECORDING);
		if (!Files.isRegularFile(recording)) {
			return false;
		}
		StringBuilder summary = new StringBuilder();
		summary.append("JFR recording of the steady window: ").append(LevelDir.JFR_RECORDING).append(" (open it in JDK Mission Control for more)\n\n");
		for (String view : VIEWS) {
			Process jfr = new ProcessBuilder(javaHome.resolve("bin/jfr").toString(), "view", "--width", "160", view, recording.toString())
				.redirectErrorStream(true)
				.start();
			String text = new String(jfr.getInputStream().readAllBytes());
			if (!jfr.waitFor(60, TimeUnit.SECONDS)) {
				jfr.destroyForcibly();
			}
			summary.append("==== jfr view ").append(view).append(" ====\n").append(text.strip()).append("\n\n");
		}
		Files.writeString(dir.resolve(LevelDir.JFR_SUMMARY), summary);
		List<String> stacks = collapsedStacks(recording);
		Files.write(dir.resolve(LevelDir.JFR_STACKS), stacks);
		Files.writeString(dir.resolve(LevelDir.JFR_FLAME), FlameGraph.svg(stacks, "CPU samples of the steady window (JFR jdk.ExecutionSample)"));
		return true;
	}

	/** Every {@code jdk.ExecutionSample}'s stack, root first, frames joined by ';', with how many samples had it. */
	static List<String> collapsedStacks(Path recording) throws IOException {
		Map<String, Integer> counts = new HashMap<>();
		try (RecordingFile file = new RecordingFile(recording)) {
			while (file.hasMoreEvents()) {
				RecordedEvent event = file.readEvent();
				if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
					continue;
				}
				List<RecordedFrame> frames = event.getStackTrace().getFrames();
				List<String> names = new ArrayList<>(frames.size());
				for (int i = frames.size() - 1; i >= 0; i--) {
					RecordedFrame frame = frames.get(i);
					names.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName());
				}
				counts.merge(String.join(";", names), 1, Integer::sum);
			}
		}
		return counts.entrySet().stream()
			.sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
			.map(entry -> entry.getKey() + " " + entry.getValue())
			.toList();
	}

}
