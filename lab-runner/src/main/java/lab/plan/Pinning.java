package lab.plan;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Which CPUs each process of a run gets. Pinned (the t2-micro profile): the service alone on its CPU, the downstream,
 * the injector and the runner on the others. Unpinned: everything shares every core.
 *
 * @param pinned whether the profile pins
 * @param serviceCpus the service's CPU list (taskset form), when pinned
 * @param otherCpus the harness's CPU list, when pinned
 * @param cores the host's cores
 * @param serviceHere whether the service runs on this host (false with --target)
 */
public record Pinning(boolean pinned, String serviceCpus, String otherCpus, int cores, boolean serviceHere) {

	public static Pinning of(RunPlan plan) {
		return new Pinning(plan.pinned(), plan.serviceCpus(), plan.otherCpus(), plan.host().cores(), !plan.remote().targetsGiven());
	}

	/** The service's taskset CPU list, or null to leave it unpinned. */
	public String serviceTaskset() {
		return this.pinned ? this.serviceCpus : null;
	}

	/** The downstream's and the injector's taskset CPU list, or null to leave them unpinned. */
	public String harnessTaskset() {
		return this.pinned ? this.otherCpus : null;
	}

	/** How many CPUs the injector and the downstream share. */
	public int injectorCpuCount() {
		return this.pinned ? this.cores - 1 : this.cores;
	}

	/** The CPUs the harness runs on: the other cores when pinned, every core otherwise (the service shares them). */
	public Set<Integer> harnessCores() {
		return this.pinned ? cpuList(this.otherCpus) : cpuList("0-" + (this.cores - 1));
	}

	/** The CPUs the service is pinned to on this host; none when unpinned (every core is shared) or not started here. */
	public Set<Integer> serviceCores() {
		return (this.pinned && this.serviceHere) ? cpuList(this.serviceCpus) : Set.of();
	}

	/** CPUs the service had: 1 pinned, the host's cores unpinned, 0 when it runs elsewhere (unknown here). */
	public int serviceCpuCount() {
		return !this.serviceHere ? 0 : this.pinned ? 1 : this.cores;
	}

	/**
	 * The runner's own JVM (the probe included) on the harness cores, never on the service's. Only for a run from the
	 * command line: a JVM that pins itself sees fewer processors afterwards.
	 */
	public void pinThisProcess(PrintStream out) {
		if (!this.pinned) {
			return;
		}
		try {
			Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", this.otherCpus, Long.toString(ProcessHandle.current().pid()))
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			taskset.waitFor(5, TimeUnit.SECONDS);
		}
		catch (IOException ex) {
			out.println("lab: could not pin the runner to CPU " + this.otherCpus + " (" + ex.getMessage() + ")");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** CPU numbers of a taskset-style list ("1", "1-3", "0,2"). */
	public static Set<Integer> cpuList(String list) {
		Set<Integer> cpus = new TreeSet<>();
		for (String part : list.split(",")) {
			String[] range = part.trim().split("-");
			int from = Integer.parseInt(range[0]);
			int to = (range.length > 1) ? Integer.parseInt(range[1]) : from;
			for (int cpu = from; cpu <= to; cpu++) {
				cpus.add(cpu);
			}
		}
		return cpus;
	}

}
