package lab.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.judge.Thresholds;
import lab.launch.Postgres;
import lab.launch.Service;
import lab.layout.LatencyTarget;
import lab.layout.Level;
import lab.layout.LevelDir;
import lab.layout.LoadParameters;
import lab.layout.LoadShape;
import lab.layout.RequestMix;
import lab.layout.RunDir;
import lab.load.Injectors;
import lab.plan.DatabasePlacement;
import lab.plan.Pinning;
import lab.plan.RunPlan;
import lab.plan.Work;
import lab.sample.PinnedRecording;
import lab.sample.Sampler;
import lab.sample.WindowTasks;

/**
 * What the run loop, the warm-up and a level session share for one run: the plan, the console, the cores, the
 * injectors, the tasks timed to the steady window, the thresholds, and the two things each of them does alike:
 * sample a service and shape the injector's load.
 *
 * @param jfr {@code --jfr}: a JFR recording of each steady window
 * @param profiling {@code --profile-cpu}: async-profiler over each steady window (its library given to {@code window})
 * @param pinned the recording of pinned virtual threads every level of a service started here gets
 * @param work what each request of the service's load asks of it besides waiting (its warm-up's too)
 * @param needs the Spring properties that reach what a service of the user's own needs (its PostgreSQL's URL); empty
 * for the lab's own
 * @param database the PostgreSQL the lab started for a service of the user's own, watched with it; null for none
 */
record Harness(RunPlan plan, PrintStream out, Pinning cpus, Injectors injectors, WindowTasks window, Thresholds thresholds, boolean jfr,
		boolean profiling, PinnedRecording pinned, Work work, java.util.Map<String, String> needs, Postgres database) {

	/** A sampler of the service (its endpoint, process and threads), the downstream (if any) and the harness cores. */
	Sampler sampler(Service service, Service downstream, Path dir) throws IOException {
		Sampler sampler = new Sampler(dir.resolve(LevelDir.METRICS));
		if (this.plan.own() == null) {
			sampler.watchEndpoint("service", service.managementUrl());
		}
		else {
			// A service of the user's own: nothing of the lab's meters in it. Its memory, threads, heap and GC are read from
			// outside (/proc, jstat); from its own endpoint, when it has one, only its connection pools' meters.
			if (this.plan.own().metrics() != null) {
				sampler.watchPools("service", service.managementUrl() + this.plan.own().metrics().path());
			}
			if (service.pid().isPresent()) {
				sampler.watchStatus("service", service.pid().getAsLong());
				sampler.watchJstat("service", service.javaHome().orElse(this.plan.javaHome()), service.pid().getAsLong(), this.cpus.harnessTaskset(),
						dir.resolve(LevelDir.JSTAT));
			}
		}
		service.pid().ifPresent(pid -> {
			sampler.watchProcess("service", pid);
			sampler.watchThreads("service", pid);
		});
		if (service.pid().isPresent()) {
			// The database the lab started is the service's own system, not a stranger on its core (placement service).
			sampler.watchStrangers(this.cpus.serviceCores(), service.pid().getAsLong(), (this.database != null) ? this.database.pid() : -1,
					dir.resolve(LevelDir.CORE_STRANGERS));
			sampler.watchSlices(service.pid().getAsLong(), dir.resolve(LevelDir.CPU_SLICES));
		}
		if (downstream != null) {
			sampler.watchEndpoint("downstream", downstream.managementUrl());
			downstream.pid().ifPresent(pid -> sampler.watchProcess("downstream", pid));
		}
		if (this.database != null && this.database.alive()) {
			// The database the lab started: its backends' activity and its CPU, the evidence that names it as a limit.
			// Where it runs is written beside its figures: the analysis counts its CPU as its own, apart from the harness's.
			String placed = this.plan.own().needs().postgres().placed();
			sampler.watchPostgres("postgres", this.database.psqlCommand(), this.database.pid(), this.cpus.harnessTaskset(),
					DatabasePlacement.cores(placed, this.cpus), this.cpus.pinned() ? placed : "unpinned");
		}
		sampler.watchCores(this.cpus.harnessCores());
		return sampler;
	}

	/** The injector's properties for one share of a level against {@code service}, with the target as assertions (null: none). */
	List<String> loadProperties(Service service, LoadShape shape, Level level, int ramp, int hold, int tail, LatencyTarget target) {
		List<String> properties = new java.util.ArrayList<>(new LoadParameters(service.url(), shape, level, this.plan.scenario().delayMs(), ramp, hold,
				tail, this.plan.scenario().requestTimeoutMs(), target, this.work.rounds(), this.work.responseBytes()).properties());
		if (this.plan.own() != null) {
			// The user's requests instead of the lab's /address/{delayMs}: written once into the results, read by the simulation.
			properties.add(RequestMix.PROPERTY + "=" + this.plan.out().resolve(RunDir.REQUEST_MIX).toAbsolutePath());
		}
		return properties;
	}

	/** Files as the report links them: relative to the results directory. */
	List<String> relative(List<Path> files) {
		return files.stream().map(file -> this.plan.out().relativize(file).toString()).toList();
	}

}
