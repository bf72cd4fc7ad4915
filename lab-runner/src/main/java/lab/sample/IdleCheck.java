package lab.sample;

import java.util.Locale;
import java.util.OptionalLong;

import lab.launch.Service;

/**
 * Whether a process fell idle once its load ended: its CPU time ({@code /proc/<pid>/stat}) over one-second steps. A JVM
 * that keeps a core busy with nothing to serve (a heap near full, collecting back to back; a backlog still draining)
 * would share that core with whatever runs on it next.
 */
public final class IdleCheck {

	private IdleCheck() {
	}

	/** {@link #busyAfter(long, int, double)} for a service's JVM; null for a remote one (no process to watch). */
	public static String busyAfter(Service service, int seconds, double percent) throws InterruptedException {
		OptionalLong pid = service.pid();
		return pid.isPresent() ? busyAfter(pid.getAsLong(), seconds, percent) : null;
	}

	/**
	 * Waits up to {@code seconds} for one second in which the process used under {@code percent} of a core; returns
	 * null when it did (or is gone), else what it still used: "still 92% of a core busy 15 s after its load ended".
	 */
	public static String busyAfter(long pid, int seconds, double percent) throws InterruptedException {
		double last = Sampler.cpuSeconds(pid);
		double busy = Double.NaN;
		for (int s = 0; s < seconds && last >= 0; s++) {
			Thread.sleep(1000);
			double now = Sampler.cpuSeconds(pid);
			if (now < 0) {
				return null;
			}
			busy = 100 * (now - last);
			if (busy < percent) {
				return null;
			}
			last = now;
		}
		return (last < 0 || Double.isNaN(busy)) ? null
				: String.format(Locale.ROOT, "still %.0f%% of a core busy %d s after its load ended", busy, seconds);
	}

}
