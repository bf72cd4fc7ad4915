package lab.analyse.judge;

import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.read.OffCpu;
import lab.layout.LatencyTarget;
import lab.layout.LevelDir;

/**
 * Whether a level missed its latency target while the service's cores were not saturated: something other than its CPU
 * held the requests, and the level gets an evidence file ({@link LevelDir#OFF_CPU}, written by the report's
 * {@code OffCpuFile}). A level that met its target, or missed it with its cores saturated (the CPU was the limit), gets none.
 */
public final class OffCpuEvidence {

	/** Mean service CPU, as a share of its cores, below which a missed target is not the CPU's doing. */
	public static final double NOT_SATURATED_PERCENT = 80;

	/** A share of slices saturated and idle each at least this large: the load came in waves. */
	public static final double WAVES_PERCENT = 20;

	private OffCpuEvidence() {
	}

	/** Whether the level calls for the file: an OK level that missed the target with its cores under {@link #NOT_SATURATED_PERCENT}. */
	public static boolean called(LevelResult result, LatencyTarget target, int cores) {
		return result.verdict() == Verdict.OK && Boolean.FALSE.equals(result.meets(target))
				&& result.serviceCpuPercent() < NOT_SATURATED_PERCENT * Math.max(1, cores);
	}

	/** Whether the slices say waves: saturated and idle each at least {@link #WAVES_PERCENT} of them. */
	public static boolean waves(OffCpu off) {
		return off.saturatedPercent() >= WAVES_PERCENT && off.idlePercent() >= WAVES_PERCENT;
	}

}
