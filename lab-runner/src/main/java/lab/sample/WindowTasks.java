package lab.sample;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import lab.launch.Interruption;
import lab.launch.Service;
import lab.load.LoadFiles;
import lab.load.LoadWindow;
import lab.layout.LevelDir;

/**
 * What the runner does at moments of a level's load window, each on a thread of its own while the load runs, timed
 * by the window the injector planned ({@code load-plan.csv}): a heap snapshot after the window's end, a JFR
 * recording or a CPU profile of the steady window. Nothing once the run is interrupted or a deadline has passed.
 */
public final class WindowTasks {

	private final Path results;

	private final PrintStream out;

	/** {@code --profile-cpu}: async-profiler's agent library, or null. */
	private final Path profiler;

	public WindowTasks(Path results, PrintStream out, Path profiler) {
		this.results = results;
		this.out = out;
		this.profiler = profiler;
	}

	/**
	 * A heap snapshot {@code afterEndMs} after the end of the window the injector planned, taken on a thread of its
	 * own while the load runs; nothing when no plan appears or the run is interrupted.
	 */
	public Thread snapshotAtWindowEnd(Service service, Path dir, String name, long afterEndMs, long giveUpSeconds) {
		long deadline = System.currentTimeMillis() + giveUpSeconds * 1000;
		return whenPlanned(service, dir, deadline, "heap snapshot " + name, plan -> {
			sleepUntil(plan.end() + afterEndMs);
			if (!Interruption.requested() && System.currentTimeMillis() < deadline) {
				HeapSnapshot.take(service, dir, name);
			}
		});
	}

	/**
	 * {@code --jfr}: a JFR recording from the planned window's steady start to its end, by jcmd (the stop, which writes
	 * the file, falls in the unmeasured tail). Interrupted, the recording is left to die with the service.
	 */
	public Thread recordSteadyWindow(Service service, Path dir, long giveUpSeconds) {
		return duringSteadyWindow(service, dir, giveUpSeconds, "JFR recording",
				() -> service.diagnose(SteadyRecording.start(), dir.resolve(LevelDir.JFR_START_LOG)),
				() -> service.diagnose(SteadyRecording.stop(dir), dir.resolve(LevelDir.JFR_STOP_LOG)));
	}

	/**
	 * {@code --profile-cpu}: async-profiler from the planned window's steady start to its end, loaded and stopped by
	 * jcmd (the stop, which writes the stacks, falls in the unmeasured tail). The first event the agent accepts is
	 * kept in {@code event}. Interrupted, the profiler is left to die with the service.
	 */
	public Thread profileSteadyWindow(Service service, Path dir, long giveUpSeconds, AtomicReference<String> event) {
		Path answer = dir.resolve(LevelDir.PROFILE_START_LOG);
		return duringSteadyWindow(service, dir, giveUpSeconds, "CPU profile", () -> {
			for (String candidate : CpuProfile.EVENTS) {
				service.diagnose(CpuProfile.start(this.profiler, candidate), answer);
				if (CpuProfile.accepted(answer)) {
					event.set(candidate);
					return true;
				}
			}
			this.out.println("  " + service.name() + ": async-profiler did not start (see " + this.results.relativize(answer) + ")");
			return false;
		}, () -> service.diagnose(CpuProfile.stop(this.profiler, dir), dir.resolve(LevelDir.PROFILE_STOP_LOG)));
	}

	/**
	 * Every thread of the service as the scheduler counted it ({@link ThreadSchedstat}) at the planned window's steady
	 * start and at its end: what the off-CPU evidence of a level reads.
	 */
	public Thread threadsAtSteadyWindow(Service service, Path dir, long giveUpSeconds) {
		long pid = service.pid().orElseThrow();
		Path file = dir.resolve(LevelDir.THREAD_SCHEDSTAT);
		return duringSteadyWindow(service, dir, giveUpSeconds, "thread schedstat", () -> {
			ThreadSchedstat.snapshot(pid, "start", file);
			return true;
		}, () -> {
			ThreadSchedstat.snapshot(pid, "end", file);
			return true;
		});
	}

	/**
	 * A service of the user's own: every thread, virtual ones included, at the planned window's end
	 * ({@code jcmd Thread.dump_to_file -format=json}, in the unmeasured tail): where they waited (a connection pool).
	 */
	public Thread threadDumpAtWindowEnd(Service service, Path dir, long giveUpSeconds) {
		Path file = dir.resolve(LevelDir.THREADS_AT_END).toAbsolutePath();
		return duringSteadyWindow(service, dir, giveUpSeconds, "thread dump", () -> true,
				() -> service.diagnose(java.util.List.of("Thread.dump_to_file", "-format=json", file.toString()), null));
	}

	interface WindowAction {

		boolean run() throws IOException, InterruptedException;

	}

	/**
	 * Runs {@code start} at the planned window's steady start and, when it succeeded, {@code stop} at the window's end;
	 * nothing once the run is interrupted or {@code giveUpSeconds} have passed.
	 */
	private Thread duringSteadyWindow(Service service, Path dir, long giveUpSeconds, String what, WindowAction start, WindowAction stop) {
		long deadline = System.currentTimeMillis() + giveUpSeconds * 1000;
		return whenPlanned(service, dir, deadline, what, plan -> {
			sleepUntil(plan.steadyStart());
			if (Interruption.requested() || System.currentTimeMillis() >= deadline || !start.run()) {
				return;
			}
			sleepUntil(plan.end());
			if (!Interruption.requested()) {
				stop.run();
			}
		});
	}

	interface PlannedTask {

		void run(LoadWindow plan) throws IOException, InterruptedException;

	}

	/** Runs {@code task} on a thread of its own once the injector has written its planned window; never when no plan appears. */
	private Thread whenPlanned(Service service, Path dir, long deadline, String what, PlannedTask task) {
		return Thread.ofVirtual().name(what).start(() -> {
			try {
				LoadWindow plan = null;
				while (plan == null && System.currentTimeMillis() < deadline && !Interruption.requested()) {
					Thread.sleep(200);
					plan = LoadFiles.plan(dir);
				}
				if (plan != null) {
					task.run(plan);
				}
			}
			catch (IOException | RuntimeException ex) {
				this.out.println("lab: no " + what + " of " + service.name() + " (" + ex.getMessage() + ")");
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
	}

	private static void sleepUntil(long epochMs) throws InterruptedException {
		while (System.currentTimeMillis() < epochMs && !Interruption.requested()) {
			Thread.sleep(100);
		}
	}

}
