package lab.analyse.read;

import java.util.List;

import lab.load.LoadWindow;

/**
 * How long the injector's threads on this host waited for a CPU in a level's window, from the kernel's scheduler
 * ({@code /proc/<pid>/task/*}{@code /schedstat}, sampled once a second as {@code run_queue_wait_seconds} and
 * {@code sched_slices} of each local injector's source): the time they were runnable but not running. A response
 * that arrives while Gatling's event loop waits for the CPU is stamped late by that wait, so the mean wait per time
 * slice (each slice a wake-up or a preemption) bounds how much the injector's own clock could have added to a
 * request's time. {@link #NONE} without samples (an injector on another host, a run before it was sampled).
 *
 * @param waitMsPerSecond the threads' summed wait per second of window, ms
 * @param waitMsPerSlice the mean wait per time slice on a CPU, ms
 */
public record InjectorWait(double waitMsPerSecond, double waitMsPerSlice) {

	public static final InjectorWait NONE = new InjectorWait(Double.NaN, Double.NaN);

	/** Summed over the injectors sampled here ({@code sources}: injector, injector-1, ...). */
	public static InjectorWait read(Samples samples, List<String> sources, LoadWindow window) {
		double wait = 0;
		double slices = 0;
		double seconds = 0;
		boolean any = false;
		for (String source : sources) {
			TimeSeries waited = samples.series(source, "run_queue_wait_seconds").clipTo(window);
			TimeSeries sliced = samples.series(source, "sched_slices").clipTo(window);
			if (waited.samples().size() < 2 || sliced.samples().size() < 2) {
				continue;
			}
			any = true;
			wait += CounterDelta.over(waited);
			slices += CounterDelta.over(sliced);
			seconds = Math.max(seconds, waited.spanSeconds());
		}
		if (!any || !(seconds > 0)) {
			return NONE;
		}
		return new InjectorWait(1000 * wait / seconds, (slices > 0) ? 1000 * wait / slices : Double.NaN);
	}

}
