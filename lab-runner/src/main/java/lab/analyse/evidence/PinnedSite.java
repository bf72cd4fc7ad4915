package lab.analyse.evidence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import lab.load.LoadWindow;

/**
 * Where virtual threads pinned their carrier in a level's window: {@code jdk.VirtualThreadPinned} events of its
 * {@code pinned.jfr} ({@link lab.sample.PinnedRecording}), grouped by the frame that pinned. That frame is the topmost
 * one outside the JDK ({@code java.}, {@code javax.}, {@code jdk.}, {@code sun.}, {@code com.sun.}): the library or
 * application code that blocked while pinned (in {@code synchronized} on JDK 21, in a native frame or a class
 * initialiser on any JDK); when every frame is the JDK's, the top frame.
 *
 * @param frame {@code class.method} of the frame that pinned
 * @param library the frame's package, its first three names ({@code org.apache.hc}, {@code ch.qos.logback})
 * @param events pinned events in the window
 * @param totalMs their durations summed: how long carriers were held
 * @param maxMs the longest
 */
public record PinnedSite(String frame, String library, long events, double totalMs, double maxMs) {

	private static final List<String> JDK_PACKAGES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");

	/** A level's sites, most pinned time first, events inside {@code window} only (all of them when it is null); none without a recording. */
	public static List<PinnedSite> read(Path recording, LoadWindow window) throws IOException {
		if (!Files.isRegularFile(recording) || Files.size(recording) == 0) {
			return List.of();
		}
		Map<String, PinnedSite> sites = new LinkedHashMap<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
			if (!event.getEventType().getName().equals("jdk.VirtualThreadPinned")
					|| (window != null && !window.contains(event.getStartTime().toEpochMilli()))) {
				continue;
			}
			String frame = frame(event.getStackTrace());
			double ms = event.getDuration().toNanos() / 1e6;
			sites.merge(frame, new PinnedSite(frame, library(frame), 1, ms, ms), PinnedSite::plus);
		}
		return sorted(sites.values());
	}

	/** Whether the level has a recording to count from (a level recorded with JFR). */
	public static boolean recorded(Path recording) throws IOException {
		return Files.isRegularFile(recording) && Files.size(recording) > 0;
	}

	/** The sites of several repeats of a level as one list: the same frame's events added. */
	public static List<PinnedSite> merge(List<List<PinnedSite>> repeats) {
		Map<String, PinnedSite> sites = new LinkedHashMap<>();
		repeats.forEach(list -> list.forEach(site -> sites.merge(site.frame(), site, PinnedSite::plus)));
		return sorted(sites.values());
	}

	/** Every site's pinned time summed. */
	public static double totalMs(List<PinnedSite> sites) {
		return sites.stream().mapToDouble(PinnedSite::totalMs).sum();
	}

	/** The frame that pinned, as {@code class.method}. */
	static String frame(RecordedStackTrace stack) {
		if (stack == null || stack.getFrames().isEmpty()) {
			return "(no stack trace)";
		}
		List<RecordedFrame> frames = stack.getFrames();
		RecordedFrame chosen = frames.stream().filter(f -> f.isJavaFrame() && !jdk(name(f))).findFirst().orElse(frames.get(0));
		return name(chosen);
	}

	static String library(String frame) {
		String[] names = frame.split("\\.");
		// The class and the method are the last two names; the package is what precedes them.
		int packageNames = Math.max(0, names.length - 2);
		return String.join(".", java.util.Arrays.copyOf(names, Math.min(3, packageNames)));
	}

	private static boolean jdk(String frame) {
		return JDK_PACKAGES.stream().anyMatch(frame::startsWith);
	}

	private static String name(RecordedFrame frame) {
		return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
	}

	private PinnedSite plus(PinnedSite other) {
		return new PinnedSite(this.frame, this.library, this.events + other.events, this.totalMs + other.totalMs, Math.max(this.maxMs, other.maxMs));
	}

	private static List<PinnedSite> sorted(java.util.Collection<PinnedSite> sites) {
		List<PinnedSite> list = new ArrayList<>(sites);
		list.sort(Comparator.comparingDouble((PinnedSite site) -> site.totalMs()).reversed().thenComparing(PinnedSite::frame));
		return List.copyOf(list);
	}

}
