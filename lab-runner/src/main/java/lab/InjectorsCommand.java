package lab;

import java.util.List;
import java.util.concurrent.Callable;

import lab.plan.InjectorPlan;
import lab.plan.Overrides;
import lab.plan.PlanException;
import lab.plan.Scenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "injectors", mixinStandardHelpOptions = true,
		description = "How many injectors of an instance type a scenario's top load needs (./lab aws up and run print it): its most requests a "
				+ "second times the injector's CPU per request, against the type's vCPUs at 70%% busy.")
final class InjectorsCommand implements Callable<Integer> {

	@Option(names = "--scenario", defaultValue = "seed", completionCandidates = Commands.BundledScenarios.class, description = "${COMPLETION-CANDIDATES} or a YAML file (default: ${DEFAULT-VALUE})")
	String scenario;

	@Option(names = "--users", split = ",", description = "the levels, as ./lab run --users gives them")
	List<Integer> users;

	@Option(names = "--delay-ms", description = "the downstream's delay, as ./lab run --delay-ms gives it")
	Long delayMs;

	@Option(names = "--instance-type", required = true, description = "the injector's EC2 type, e.g. c5.xlarge")
	String instanceType;

	@Option(names = "--vcpus", description = "the type's vCPUs, when the lab's table does not know it")
	Integer vcpus;

	@Option(names = "--count", defaultValue = "1", description = "the injectors planned (injector_count); fewer than needed prints a WARNING line (default: ${DEFAULT-VALUE})")
	int count;

	@Option(names = "--injector-ms", description = "CPU ms one request costs an injector: headroom.injectorMsPerRequest of a run of yours (default: the lab's measured 0.10)")
	Double msPerRequest;

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public Integer call() {
		if (this.count < 1) {
			throw new PlanException("--count must be 1 or more: the injectors planned");
		}
		Scenario loaded = new Overrides(null, this.users, this.delayMs, null, null, null, null, null, null, null, null)
			.applyTo(Scenario.load(this.scenario));
		InjectorPlan.of(loaded, this.instanceType, this.vcpus, this.msPerRequest).describe(this.count)
			.forEach(this.spec.commandLine().getOut()::println);
		return 0;
	}

}
