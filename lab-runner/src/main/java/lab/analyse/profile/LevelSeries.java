package lab.analyse.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.TreeMap;

import lab.analyse.read.LevelFacts;
import lab.analyse.read.LevelFiles;
import lab.analyse.read.Samples;
import lab.layout.LevelDir;
import lab.load.LoadWindow;

/**
 * One level second by second, as its timeline draws it: taken from its files in the same pass as its figures
 * ({@link LevelFiles}), so drawing reads nothing. The memory profile takes its answers per second from here too.
 *
 * @param dir the level's directory
 * @param facts its {@code level.json}
 * @param window the window drawn: the level's, else the one planned (a level cut short); null when it never ran
 * @param sentAndFailed per send second (epoch ms): requests sent, and failed (4xx, 5xx, timeouts, refused, checks)
 * @param answered per wall-clock second: answers of any status
 * @param okPercentiles per send second: p50 and p99 of the successes (ms)
 * @param samples the runner's samples (service CPU, heap, GC, connections)
 * @param jfr whether a JFR summary of the window exists ({@code --jfr})
 * @param profile whether an async-profiler flame graph exists ({@code --profile-cpu})
 * @param start the level as a cold start, timed from the service's process start; null for any other level
 */
public record LevelSeries(Path dir, LevelFacts facts, LoadWindow window, TreeMap<Long, long[]> sentAndFailed, TreeMap<Long, Long> answered,
		TreeMap<Long, double[]> okPercentiles, Samples samples, boolean jfr, boolean profile, StartProfile start) {

	public static LevelSeries of(LevelFiles files) throws IOException {
		return new LevelSeries(files.dir(), files.facts(), files.drawnWindow(), files.sentAndFailedBySecond(), files.answeredPerSecond(),
				files.okPercentilesBySecond(), files.samples(), files.has(LevelDir.JFR_SUMMARY), files.has(LevelDir.PROFILE_FLAME),
				StartProfile.read(files.dir(), files.facts(), files.samples()).orElse(null));
	}

}
