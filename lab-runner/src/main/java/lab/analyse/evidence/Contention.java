package lab.analyse.evidence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import lab.load.LoadWindow;

/**
 * Threads blocked entering a monitor ({@code synchronized}) in a level's window, from its steady-window JFR recording
 * ({@code --jfr}, JFR's {@code profile} settings: {@code jdk.JavaMonitorEnter} events of 10 ms or more): how many threads
 * were blocked on average, the events' durations summed over the window's length. {@link #NONE} without a recording.
 *
 * @param blockedThreads threads blocked entering a monitor, on average over the window
 * @param events the events counted
 */
public record Contention(double blockedThreads, long events) {

	public static final Contention NONE = new Contention(Double.NaN, 0);

	static final String EVENT = "jdk.JavaMonitorEnter";

	public static Contention read(Path recording, LoadWindow window) throws IOException {
		if (window == null || !Files.isRegularFile(recording) || Files.size(recording) == 0) {
			return NONE;
		}
		double blockedMs = 0;
		long events = 0;
		try (RecordingFile file = new RecordingFile(recording)) {
			while (file.hasMoreEvents()) {
				RecordedEvent event = file.readEvent();
				if (event.getEventType().getName().equals(EVENT) && window.contains(event.getStartTime().toEpochMilli())) {
					blockedMs += event.getDuration().toNanos() / 1e6;
					events++;
				}
			}
		}
		catch (IOException ex) {
			// A recording cut short (the service died while it was written): what was read counts, or nothing.
			if (events == 0) {
				return NONE;
			}
		}
		double windowMs = window.end() - window.steadyStart();
		return new Contention((windowMs > 0) ? blockedMs / windowMs : Double.NaN, events);
	}

}
