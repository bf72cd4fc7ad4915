package lab.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.layout.LoadShape;

/**
 * How many injectors a scenario's top load needs on an instance type: the most requests a second the scenario can ask
 * for, times what one request costs an injector in CPU (the report's {@code headroom.injectorMsPerRequest}), against
 * what the type's vCPUs give at {@link #PLANNED_BUSY} busy, below the {@code injector_busy} rule's 90% so that a burst
 * or a GC does not mark the top levels INVALID.
 *
 * <p>A closed user sends its next request when the last is answered, never sooner than the downstream's delay: N users on
 * a D ms downstream send at most N × 1000 / D requests a second. An open level sends its rate. A capacity search may go
 * to its {@code searchMax}.
 *
 * @param topLoad the scenario's largest level (users or arrivals a second), its search maximum included
 * @param requestsPerSecond the most requests a second it can ask for; NaN when nothing bounds it (no delay)
 */
public record InjectorPlan(Scenario scenario, int topLoad, double requestsPerSecond, String instanceType, int vcpus, double msPerRequest,
		int needed) {

	/**
	 * CPU ms one request costs a Gatling injector: the middle of what this project's runs measured
	 * ({@code headroom.injectorMsPerRequest}, JDK 25, one injector on one core of a 2-core machine): 0.07-0.13 at 500-2,400
	 * requests a second, 0.05-0.07 at 1,900-3,500 (the own-service and A/B runs of docs/your-service.md), up to 0.55 only
	 * below 200 requests a second, where the fixed cost of a second weighs most. Override it with the figure of your own
	 * run: {@code --injector-ms}.
	 */
	public static final double MEASURED_MS_PER_REQUEST = 0.10;

	/** The share of an injector's vCPUs planned for: the rule marks a level INVALID above 90%. */
	public static final double PLANNED_BUSY = 0.70;

	/** vCPUs of the instance types the lab's Terraform and its price table name. */
	static final Map<String, Integer> VCPUS = Map.ofEntries(Map.entry("t2.micro", 1), Map.entry("t2.small", 1), Map.entry("t2.medium", 2),
			Map.entry("t3.micro", 2), Map.entry("t3.medium", 2), Map.entry("c5.large", 2), Map.entry("c5.xlarge", 4),
			Map.entry("c5.2xlarge", 8), Map.entry("c6i.xlarge", 4), Map.entry("m5.large", 2));

	/**
	 * @param vcpus the type's vCPUs when the lab's table does not know it, else null
	 * @param msPerRequest the injector's CPU ms per request, null for {@link #MEASURED_MS_PER_REQUEST}
	 */
	public static InjectorPlan of(Scenario scenario, String instanceType, Integer vcpus, Double msPerRequest) {
		Integer known = (vcpus != null) ? vcpus : VCPUS.get(instanceType);
		if (known == null || known < 1) {
			throw new PlanException("--instance-type " + instanceType + ": its vCPUs are not in the lab's table (" + String.join(", ",
					VCPUS.keySet().stream().sorted().toList()) + "): give them with --vcpus N");
		}
		double ms = (msPerRequest != null) ? msPerRequest : MEASURED_MS_PER_REQUEST;
		if (!(ms > 0)) {
			throw new PlanException("--injector-ms must be above 0: the CPU ms one request costs an injector (headroom.injectorMsPerRequest of a run)");
		}
		List<Integer> loads = new ArrayList<>((scenario.model() == LoadShape.OPEN) ? scenario.ratesPerSecond() : scenario.users());
		if (scenario.searching() && scenario.searchMax() != null) {
			loads.add(scenario.searchMax());
		}
		int top = loads.stream().mapToInt(Integer::intValue).max().orElse(0);
		double rps = (scenario.model() == LoadShape.OPEN) ? top : (scenario.delayMs() > 0) ? top * 1000.0 / scenario.delayMs() : Double.NaN;
		int needed = Double.isNaN(rps) ? 1 : Math.max(1, (int) Math.ceil(rps * ms / (known * 1000.0 * PLANNED_BUSY)));
		return new InjectorPlan(scenario, top, rps, instanceType, known, ms, needed);
	}

	/** The requests a second one injector of the type carries at {@link #PLANNED_BUSY}. */
	public double perInjector() {
		return this.vcpus * 1000.0 * PLANNED_BUSY / this.msPerRequest;
	}

	/** The plan in one line, and a warning line when {@code count} injectors are fewer than it needs. */
	public List<String> describe(int count) {
		String load = (this.scenario.model() == LoadShape.OPEN) ? String.format(Locale.ROOT, "%,d arrivals a second", this.topLoad)
				: String.format(Locale.ROOT, "%,d users on a %,d ms downstream", this.topLoad, this.scenario.delayMs());
		List<String> lines = new ArrayList<>();
		if (Double.isNaN(this.requestsPerSecond)) {
			lines.add(String.format(Locale.ROOT, "injectors: scenario %s's top load, %s, has no delay to bound its rate: the service's speed sets it; "
					+ "one %s (%d vCPUs) carries about %,.0f requests a second at %.2f ms of injector CPU each", this.scenario.name(), load, this.instanceType,
					this.vcpus, perInjector(), this.msPerRequest));
			return lines;
		}
		lines.add(String.format(Locale.ROOT, "injectors: scenario %s's top load, %s, asks up to %,.0f requests a second; at %.2f ms of injector CPU "
				+ "each, one %s (%d vCPUs) carries about %,.0f at %.0f%% busy: %d injector(s) needed, %d planned", this.scenario.name(), load,
				this.requestsPerSecond, this.msPerRequest, this.instanceType, this.vcpus, perInjector(), PLANNED_BUSY * 100, this.needed, count));
		if (count < this.needed) {
			lines.add(String.format(Locale.ROOT, "WARNING: %d injector(s) are fewer than the %d this load needs: set injector_count = %d in "
					+ "terraform.tfvars (or a larger injector type), else the top levels may be judged INVALID (injectors over 90%% busy)", count,
					this.needed, this.needed));
		}
		return lines;
	}

}
