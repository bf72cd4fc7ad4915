package lab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.OffCpuEvidence;
import lab.analyse.measure.Breakdown;
import lab.analyse.measure.Measurement;
import lab.analyse.read.OffCpu;
import lab.layout.LatencyTarget;
import lab.layout.LevelDir;

/**
 * The evidence file of a level that missed its latency target while the service's cores were not saturated
 * ({@link LevelDir#OFF_CPU}, when {@link OffCpuEvidence#called}): what the level measured of where the time went: the
 * breakdown of a request's mean time by the three clocks ({@link Breakdown}), the core in 100 ms slices and the threads'
 * run-queue wait ({@link OffCpu}), and the JFR summary when the level was recorded.
 */
public final class OffCpuFile {

	private OffCpuFile() {
	}

	/** Writes the file into the level's directory when {@link OffCpuEvidence#called called} for; returns it. */
	public static Optional<Path> write(Measurement measurement, LevelResult result, LatencyTarget target) throws IOException {
		return write(measurement.dir(), measurement.facts().serviceCpus(), measurement.breakdown(), measurement.offCpu(), result, target);
	}

	/** The same from its parts: the level's directory, the service's cores, what the level measured, its row. */
	public static Optional<Path> write(Path dir, int serviceCpus, Breakdown parts, OffCpu off, LevelResult result, LatencyTarget target) throws IOException {
		int cores = Math.max(1, serviceCpus);
		if (!OffCpuEvidence.called(result, target, cores)) {
			return Optional.empty();
		}
		Path file = dir.resolve(LevelDir.OFF_CPU);
		Files.writeString(file, text(dir, cores, parts, off, result, target));
		return Optional.of(file);
	}

	static String text(Path dir, int cores, Breakdown parts, OffCpu off, LevelResult result, LatencyTarget target) {
		List<String> lines = new ArrayList<>();
		lines.add("# Off-CPU evidence: " + result.variant() + " " + result.level().name());
		lines.add("");
		lines.add(String.format(Locale.ROOT, "The level missed its target (%s) with the service's %s %.0f%% busy on average (under %.0f%%): "
				+ "something other than its CPU held the requests. What the level measured of where their time went:",
				result.targetText(target).replaceFirst("^target missed: ", ""),
				(cores == 1) ? "core" : cores + " cores", result.serviceCpuPercent() / cores, OffCpuEvidence.NOT_SATURATED_PERCENT));
		lines.add("");
		lines.add("## A request's mean time, by the three clocks");
		lines.add("");
		if (Double.isNaN(parts.serverMeanMs())) {
			lines.add(String.format(Locale.ROOT, "The injector's mean: %s ms. The service has no per-request timers (`observe lean`, or a service "
					+ "without the lab's meters): where inside it the time went is not measured.", ms(parts.injectorMeanMs())));
		}
		else {
			lines.add("| part | mean ms | what it holds |");
			lines.add("|---|---:|---|");
			lines.add("| the injector's time | " + ms(parts.injectorMeanMs()) + " | send to the answer's last byte |");
			lines.add("| before the server's timer | " + ms(parts.beforeServerMs())
					+ " | " + Figures.BEFORE_SERVER_HOLDS + " |");
			lines.add("| in the service, outside the call | " + ms(parts.outsideCallMs())
					+ " | " + Figures.OUTSIDE_CALL_HOLDS + " |");
			lines.add("| the downstream call | " + ms(parts.clientMeanMs())
					+ " | " + Figures.CALL_HOLDS + " |");
			lines.add("");
			lines.add("Percentiles, each clock's own: server p50 " + ms(parts.serverP50Ms()) + " / p99 " + ms(parts.serverP99Ms()) + " ms, call p50 "
					+ ms(parts.clientP50Ms()) + " / p99 " + ms(parts.clientP99Ms()) + " ms.");
		}
		lines.add("");
		lines.add("## The core in 100 ms slices (`" + LevelDir.CPU_SLICES + "`)");
		lines.add("");
		if (off.cpuSamples() == 0) {
			lines.add("Not sampled.");
		}
		else {
			double between = 100 - off.saturatedPercent() - off.idlePercent();
			lines.add(String.format(Locale.ROOT, "%d slices: saturated (≥ %.0f%% of the cores) %.0f%%, idle (≤ %.0f%%) %.0f%%, in between %.0f%%.",
					off.cpuSamples(), 100 * OffCpu.SATURATED, off.saturatedPercent(), 100 * OffCpu.IDLE, off.idlePercent(), between));
			lines.add("");
			lines.add(OffCpuEvidence.waves(off) ? String.format(Locale.ROOT, "Saturated and idle by turns (each at least %.0f%% of the slices): the load came in "
					+ "waves. Requests that arrive together queue for the core although it is idle the rest of the time; closed users on a fixed "
					+ "downstream delay phase-lock into such waves.", OffCpuEvidence.WAVES_PERCENT)
					: "Not in waves by this measure (saturated and idle are not each at least " + (int) OffCpuEvidence.WAVES_PERCENT
							+ "% of the slices): the requests did not queue for a busy core most of the time.");
		}
		lines.add("");
		lines.add("## The threads' wait for a CPU (`" + LevelDir.THREAD_SCHEDSTAT + "`)");
		lines.add("");
		if (off.groups().isEmpty()) {
			lines.add("Not sampled.");
		}
		else {
			lines.add(String.format(Locale.ROOT, "Over the %.0f s window, by thread name (numbers as #), busiest first: time on a CPU and time runnable "
					+ "but waiting for one (the run queue of the service's core).", off.windowSeconds()));
			lines.add("");
			lines.add("| threads | n | CPU ms/s | run queue ms/s | time slices/s | wait per slice ms |");
			lines.add("|---|---:|---:|---:|---:|---:|");
			for (OffCpu.Threads group : off.groups()) {
				lines.add("| `" + group.name() + "` | " + group.threads() + " | " + ms(group.cpuMs() / off.windowSeconds()) + " | "
						+ ms(group.runQueueMs() / off.windowSeconds()) + " | " + ms(group.schedulerSlices() / off.windowSeconds()) + " | "
						+ String.format(Locale.ROOT, "%.2f", group.waitPerSliceMs()) + " |");
			}
			lines.add("");
			lines.add(String.format(Locale.ROOT, "In all: %s ms of run-queue wait per second. A request waiting for a carrier that is busy running "
					+ "other virtual threads, for a lock, or for a pool's connection is not a thread on the run queue: JFR shows those (`--jfr`).",
					ms(off.runQueueMsPerSecond())));
		}
		Path jfr = dir.resolve(LevelDir.JFR_SUMMARY);
		if (Files.isRegularFile(jfr)) {
			lines.add("");
			lines.add("The level's JFR summary (hot methods, contention, parks, pinned threads): `" + LevelDir.JFR_SUMMARY + "`.");
		}
		lines.add("");
		return String.join("\n", lines);
	}

	private static String ms(double value) {
		if (!Double.isFinite(value)) {
			return "-";
		}
		return String.format(Locale.ROOT, (Math.abs(value) < 10) ? "%.1f" : "%,.0f", value);
	}

}
