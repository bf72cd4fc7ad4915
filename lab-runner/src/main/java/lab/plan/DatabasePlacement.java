package lab.plan;

/**
 * Where a PostgreSQL the lab starts for a service of the user's own runs under a pinning profile, and what its CPU is
 * counted as. The database belongs to the system under test, never to the harness: its CPU is a figure of its own
 * ({@code pgCpuPercent}) in every level, and the harness's headroom rule judges the injector and the runner on what they
 * used, without it.
 * <ul>
 * <li>{@link #SERVICE} (the default): on the service's core. The service and its database share one t2.micro-sized
 * core, and the harness's core is the injector's alone: on two cores, the only placement where the database's work
 * cannot slow the injector's clock.</li>
 * <li>{@link #HARNESS}: on the harness's cores, beside the injector (and the downstream). The service keeps its core;
 * the injector's own wait for the CPU is then read per thread and judged against the latencies it reports.</li>
 * </ul>
 * A database on another host is {@code needs.postgres.url}: nothing is started here.
 */
public final class DatabasePlacement {

	public static final String SERVICE = "service";

	public static final String HARNESS = "harness";

	/** The placements a PostgreSQL started here can have. */
	public static final java.util.List<String> ALL = java.util.List.of(SERVICE, HARNESS);

	private DatabasePlacement() {
	}

	/** The taskset CPU list for a database placed at {@code placement} (null: unpinned). */
	public static String taskset(String placement, Pinning cpus) {
		return SERVICE.equals(placement) ? cpus.serviceTaskset() : cpus.harnessTaskset();
	}

	/** The CPUs a database placed at {@code placement} runs on: the service's or the harness's, every core when unpinned. */
	public static java.util.Set<Integer> cores(String placement, Pinning cpus) {
		return (SERVICE.equals(placement) && cpus.pinned()) ? cpus.serviceCores() : cpus.harnessCores();
	}

	/** The placement in the plan's and the report's words. */
	public static String describe(String placement, Pinning cpus) {
		if (!cpus.pinned()) {
			return "unpinned, sharing every core with the service and the harness (--profile unconstrained)";
		}
		return SERVICE.equals(placement)
				? "on the service's core (CPU " + cpus.serviceCpus() + "): the service and its database share it, the harness's cores are the injector's"
				: "on the harness's cores (CPU " + cpus.otherCpus() + ") beside the injector: the injector's own wait for the CPU is judged";
	}

}
