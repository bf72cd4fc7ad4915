package lab.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import lab.analyse.LevelFacts;
import lab.launch.Interruption;
import lab.launch.RemoteService;
import lab.launch.Service;
import lab.launch.ServiceFailure;
import lab.layout.ServiceDir;
import lab.plan.Arm;

/**
 * A service's life before its levels, the one path an ordinary run and a capacity search both take: started (or
 * reached), admitted ({@link ServiceStart#admit}: contract, client, tuning), warmed up until its JIT settles. A service
 * that does not get that far is not measured: the caller is told whose fault it was, with the reasons and the evidence.
 */
final class ServiceLife {

	/** A service ready for its levels, and its warm-up's directory (null: no warm-up, or it died during it). */
	record Live(Service service, Path warmup) {
	}

	/** What the caller records for the levels a service that never got ready will not run. */
	@FunctionalInterface
	interface NotRunRecorder {

		void record(LevelFacts.Blame blame, List<String> reasons, List<String> evidence) throws IOException;

	}

	private final Harness harness;

	ServiceLife(Harness harness) {
		this.harness = harness;
	}

	/**
	 * Starts {@code module} in {@code arm} as {@code variant} into {@code dir}, admits it and warms it up; empty when it
	 * did not get ready (then {@code notRun} was told why, unless the person interrupted the run) or was interrupted.
	 */
	Optional<Live> begin(String module, Arm arm, String variant, Service downstream, Path dir, NotRunRecorder notRun)
			throws IOException, InterruptedException {
		ServiceStart start = new ServiceStart(this.harness);
		Service service;
		try {
			service = start.start(module, arm, variant, downstream, dir);
		}
		catch (ServiceFailure ex) {
			if (!Interruption.requested()) {
				say("lab: " + variant + " FAILED to start: " + ex.getMessage());
				notRun.record(LevelFacts.Blame.SERVICE, List.of(ex.getMessage()),
						List.of(this.harness.plan().out().relativize(dir.resolve(ServiceDir.LOG)).toString()));
			}
			return Optional.empty();
		}
		boolean ready = false;
		try {
			say("lab: " + variant + " up at " + service.url() + pidNote(service));
			if (service instanceof RemoteService remote) {
				say("lab: " + variant + "'s JVM: " + remote.jvmFacts());
			}
			Optional<ServiceStart.NotRun> refused = start.admit(service, module, arm.tuning(), downstream, dir);
			if (refused.isPresent()) {
				if (refused.get().blame() != null) {
					notRun.record(refused.get().blame(), refused.get().reasons(), refused.get().evidence());
				}
				return Optional.empty();
			}
			Path warmup = new WarmUp(this.harness).run(service, dir.resolve(ServiceDir.WARMUP));
			ready = true;
			return Optional.of(new Live(service, warmup));
		}
		finally {
			if (!ready) {
				service.close();
			}
		}
	}

	static String pidNote(Service service) {
		return service.pid().isPresent() ? " (pid " + service.pid().getAsLong() + ")" : " (already running)";
	}

	private void say(String line) {
		this.harness.out().println(line);
	}

}
