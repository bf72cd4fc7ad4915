package lab.plan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import lab.json.Json;
import lab.layout.LatencyTarget;
import lab.layout.Level;
import lab.layout.LoadShape;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A scenario file (YAML), parsed by field name; units in the names. See {@code src/main/resources/scenarios}.
 *
 * @param name scenario name, used in the results directory
 * @param description one line for the report
 * @param model closed | open | spike | soak
 * @param variants which variants run, in order
 * @param users concurrent users per level (closed, spike, soak)
 * @param ratesPerSecond arrivals per second per level (open)
 * @param delayMs the downstream's delay
 * @param rampSeconds ramp of each level
 * @param holdSeconds measured time at full load of each level
 * @param warmupSeconds JIT warm-up of each service before its first level, not recorded; 0 skips it (and
 * marks every level INVALID)
 * @param warmupUsers concurrent users of the warm-up
 * @param warmupMaxSeconds the warm-up goes on past {@code warmupSeconds}, in rounds, while the JIT still compiles,
 * up to this long in all (default: {@code warmupSeconds} + 120; equal to it: a fixed warm-up)
 * @param requestTimeoutMs a request without an answer by then counts as a timeout
 * @param profile t2-micro | unconstrained
 * @param repeat how many times each level runs; the report gives the median and the spread
 * @param tunings the tunings each variant runs under, side by side ({@code default}, {@code tuned} or tuning files)
 * @param observe how much each service observes of itself: {@code full} (default), {@code lean}, or both side by side
 * @param jdks the JDKs each variant runs on, side by side ({@code 21}, {@code 25} or paths); none: the JDK running the lab
 * @param latencyTarget the latency target every level is judged by besides its verdict, e.g. {@code p99<=1000ms,errors<=0.1%}
 * ({@link LatencyTarget}); declared, a run exits 3 when a variant misses it; none: {@link LatencyTarget#DEFAULT}, shown, no gate
 * @param searchMax with it, the levels are a capacity search, not a ladder: from the first of {@code users} (or
 * {@code ratesPerSecond}), doubling while the target is met, up to this, then narrowing
 * @param searchResolutionPercent the search stops when the loads that met and missed the target are this close (default 10)
 * @param works the work each request asks of the service, in serialise-and-hash rounds ({@code ?work=}), side by side:
 * each a run of every variant of its own (rows {@code <variant>.work<N>} when there are several); default {@code [0]},
 * pure waiting
 * @param responseBytes the answer's size each request asks for ({@code ?bytes=}); default 0, the downstream's body
 * @param coldStart a start scenario: each service is loaded at once with its one level the moment it answers its
 * health check, no warm-up, and the report times its way to full speed from its process start; each repeat is one
 * more start
 * @param aot JDK 25's AOT cache, side by side: {@code none}, {@code trained} (under the lab's load), {@code refresh} (Spring
 * Boot's training, exiting at context refresh); each a run of every variant from its extracted jar (rows
 * {@code <variant>.aot-<mode>}); none given: no such axis, the fat jar as always
 * @param aotTrainingSeconds how long a {@code trained} cache's training run is loaded (at the scenario's first level; default 60)
 * @param rounds a capacity search's refining rounds after its bracket (default 3): every variant probed once per round, in
 * a fresh random order, just below or above its estimate; the capacities and ratios come from these rounds
 * @param baseline the variant (a module of {@code variants}) every capacity is related to (default: the first)
 * @param aa an A/A check: the baseline entered a second time under a second name (its label with {@code aa}); its ratio to
 * the baseline is the run's own noise floor
 * @param referenceMovedPercent a search round whose CPU reference (timed on the service's core before and after it) reads
 * this much slower than the run's median, or changed this much within the round, is marked and run again (default 10)
 * @param jvms a capacity search's JVMs per variant (default 2): the refining rounds are shared out among them, each share
 * on fresh JVMs, so the intervals hold the JVM-to-JVM spread a second run would show
 * @param searchMinutes a capacity search's time budget, from its first start: no refining round starts that the budget
 * has no room for (its probes at the median probe's length so far), and a variant needing a fresh JVM sits out a refining
 * round with no room for the start; the search ends there and says so (default: none)
 * @param halvingSteps a tune search: successive halving over the variants in at most this many steps, each a capacity
 * search of the survivors (docs/tune.md); none: one search of every variant
 * @param service a service file (relative to the lab's root) the scenario measures when {@code --service} names none:
 * {@code db} is the database set's pools ({@code db/pools.yml}); none: the lab's variants, or {@code --service}'s file
 * @param probesPerJvm a variance study ({@code --scenario variance}, docs/variance.md): {@code jvms} fresh JVMs of each
 * variant in each arm, each probed this many times at one load near its knee, interleaved; none: not one
 * @param preloadFactor a variance study's history arm: every variant and arm also runs as an entry whose fresh JVMs, warmed
 * as the others, are first probed once at this many times its load (a bracket's step past the knee), and only then at the
 * load: a JVM's load history as a cause; none: no history arm
 * @param holdArmSeconds a variance study's hold arm: every variant and arm also runs as an entry whose probes hold this
 * many seconds instead of {@code holdSeconds} (a probe's own p99 wobble against its length); none: no hold arm
 */
public record Scenario(String name, String description, LoadShape model, List<String> variants, List<Integer> users,
		List<Integer> ratesPerSecond, Long delayMs, Integer rampSeconds, Integer holdSeconds, Integer warmupSeconds,
		Integer warmupUsers, Integer warmupMaxSeconds, Long requestTimeoutMs, String profile, Integer repeat, List<String> tunings, List<String> observe,
		List<String> jdks, LatencyTarget latencyTarget, Integer searchMax, Double searchResolutionPercent, List<Integer> works,
		Integer responseBytes, Boolean coldStart, List<String> aot, Integer aotTrainingSeconds, Integer rounds, String baseline, Boolean aa,
		Double referenceMovedPercent, Double searchMinutes, Integer jvms, Integer halvingSteps,
		@JsonInclude(JsonInclude.Include.NON_NULL) String service, @JsonInclude(JsonInclude.Include.NON_NULL) Integer probesPerJvm,
		@JsonInclude(JsonInclude.Include.NON_NULL) Double preloadFactor, @JsonInclude(JsonInclude.Include.NON_NULL) Integer holdArmSeconds) {

	private static final YAMLMapper yaml = YAMLMapper.builder()
		.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.addModule(new SimpleModule().addDeserializer(LoadShape.class, new ModelName()))
		.addModule(Json.TARGET)
		.build();

	public Scenario {
		description = (description != null) ? description : "";
		variants = (variants != null) ? List.copyOf(variants) : Variant.names();
		users = (users != null) ? List.copyOf(users) : List.of();
		ratesPerSecond = (ratesPerSecond != null) ? List.copyOf(ratesPerSecond) : List.of();
		model = (model != null) ? model : LoadShape.CLOSED;
		profile = (profile != null) ? profile : Profile.T2_MICRO.id();
		// Optional fields and their defaults; delayMs and holdSeconds are required (checked in problems()).
		rampSeconds = (rampSeconds != null) ? rampSeconds : 0;
		coldStart = Boolean.TRUE.equals(coldStart);
		warmupSeconds = (warmupSeconds != null) ? warmupSeconds : coldStart ? 0 : 30;
		warmupUsers = (warmupUsers != null) ? warmupUsers : 100;
		warmupMaxSeconds = (warmupMaxSeconds != null) ? warmupMaxSeconds : (warmupSeconds > 0) ? warmupSeconds + 120 : 0;
		repeat = (repeat != null) ? repeat : 1;
		requestTimeoutMs = (requestTimeoutMs != null) ? requestTimeoutMs : 30_000L;
		tunings = (tunings != null && !tunings.isEmpty()) ? List.copyOf(tunings) : List.of(Tuning.DEFAULT);
		observe = (observe != null && !observe.isEmpty()) ? List.copyOf(observe) : List.of(Observe.FULL.id());
		jdks = (jdks != null) ? jdks.stream().map(String::valueOf).toList() : List.of();
		works = (works != null && !works.isEmpty()) ? List.copyOf(works) : List.of(0);
		responseBytes = (responseBytes != null) ? responseBytes : 0;
		aot = (aot != null) ? List.copyOf(aot) : List.of();
		aotTrainingSeconds = (aotTrainingSeconds != null) ? aotTrainingSeconds : 60;
		rounds = (rounds != null) ? rounds : 3;
		aa = Boolean.TRUE.equals(aa);
		referenceMovedPercent = (referenceMovedPercent != null) ? referenceMovedPercent : 10.0;
		jvms = (jvms != null) ? jvms : 2;
	}

	/** The variant capacities are related to: the declared one, else the first. */
	public String baselineVariant() {
		return (this.baseline != null) ? this.baseline : this.variants.get(0);
	}

	/** This scenario with a search's baseline, A/A check and rounds set by flags (null keeps the scenario's). */
	public Scenario withSearch(String baseline, Boolean aa, Integer rounds) {
		return new Scenario(this.name, this.description, this.model, this.variants, this.users, this.ratesPerSecond, this.delayMs, this.rampSeconds,
				this.holdSeconds, this.warmupSeconds, this.warmupUsers, this.warmupMaxSeconds, this.requestTimeoutMs, this.profile, this.repeat,
				this.tunings, this.observe, this.jdks, this.latencyTarget, this.searchMax, this.searchResolutionPercent, this.works, this.responseBytes,
				this.coldStart, this.aot, this.aotTrainingSeconds, (rounds != null) ? rounds : this.rounds, (baseline != null) ? baseline : this.baseline,
				(aa != null) ? aa : this.aa, this.referenceMovedPercent, this.searchMinutes, this.jvms, this.halvingSteps, this.service, this.probesPerJvm,
				this.preloadFactor, this.holdArmSeconds);
	}

	/** The work per request of each side-by-side run, in the order given. */
	public List<Work> requestWorks() {
		return this.works.stream().map(rounds -> new Work(rounds, this.responseBytes)).toList();
	}

	/** The latency target the levels are judged by: the declared one, else the default. */
	public LatencyTarget target() {
		return (this.latencyTarget != null) ? this.latencyTarget : LatencyTarget.DEFAULT;
	}

	/** Whether the run is a variance study ({@code probesPerJvm} set): fresh JVMs probed at one load each, no search. */
	public boolean variance() {
		return this.probesPerJvm != null;
	}

	/** Whether the levels are a capacity search ({@code searchMax} set) rather than the listed ladder. */
	public boolean searching() {
		return this.searchMax != null;
	}

	/** The search's resolution in %, when searching. */
	public double searchResolution() {
		return (this.searchResolutionPercent != null) ? this.searchResolutionPercent : 10;
	}

	/** Whether this run declared its target (flag or scenario field): then missing it is the run's failure (exit 3). */
	public boolean targetDeclared() {
		return this.latencyTarget != null;
	}

	/** A bundled scenario by name, or a file path. */
	public static Scenario load(String nameOrPath) {
		Path file = Path.of(nameOrPath);
		if (Files.isRegularFile(file)) {
			try (InputStream in = Files.newInputStream(file)) {
				return parse(in, file.toString());
			}
			catch (IOException ex) {
				throw new PlanException("cannot read scenario file " + file + ": " + ex.getMessage());
			}
		}
		InputStream bundled = Scenario.class.getResourceAsStream("/scenarios/" + nameOrPath + ".yml");
		if (bundled == null) {
			throw new PlanException("unknown scenario '" + nameOrPath + "': use one of " + String.join(", ", bundledNames())
					+ ", or the path of a scenario file");
		}
		return parse(bundled, nameOrPath);
	}

	/** Every scenario in the runner's {@code scenarios/} folder, by name. */
	public static List<String> bundledNames() {
		return Bundled.names("scenarios");
	}

	static Scenario parse(InputStream in, String source) {
		Scenario scenario;
		try {
			byte[] content = in.readAllBytes();
			if (new String(content, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
				throw new PlanException(source + ": the scenario file is empty");
			}
			scenario = yaml.readValue(content, Scenario.class);
		}
		catch (IOException ex) {
			throw new PlanException("cannot read " + source + ": " + ex.getMessage());
		}
		catch (UnrecognizedPropertyException ex) {
			throw new PlanException(source + ": unknown field '" + ex.getPropertyName() + "'; valid fields are name, "
					+ "description, model, variants, users, ratesPerSecond, delayMs, rampSeconds, holdSeconds, "
					+ "warmupSeconds, warmupUsers, warmupMaxSeconds, requestTimeoutMs, profile, repeat, tunings, observe, jdks, latencyTarget, "
					+ "searchMax, searchResolutionPercent, works, responseBytes, coldStart, aot, aotTrainingSeconds, rounds, baseline, aa, referenceMovedPercent, searchMinutes, jvms, halvingSteps, service, probesPerJvm, preloadFactor, holdArmSeconds");
		}
		catch (DatabindException ex) {
			// A bad field's own one line: the lab's own (PlanException) or a value's parser's (a latency target's).
			Throwable cause = (ex.getCause() instanceof PlanException || ex.getCause() instanceof IllegalArgumentException) ? ex.getCause() : ex;
			throw new PlanException(source + ": " + firstLine(cause.getMessage()));
		}
		catch (PlanException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw new PlanException(source + ": not a valid scenario file: " + firstLine(ex.getMessage()));
		}
		if (scenario == null) {
			throw new PlanException(source + ": the scenario file is empty");
		}
		List<String> problems = scenario.problems();
		if (!problems.isEmpty()) {
			throw new PlanException(source + ": " + String.join("; ", problems));
		}
		return scenario;
	}

	/** Every problem of this scenario, each with its fix; empty when it can run. */
	public List<String> problems() {
		return problems(Variants.LAB);
	}

	/** Every problem of this scenario when {@code known} are the variants it may name ({@link ScenarioChecks}). */
	public List<String> problems(Variants known) {
		return ScenarioChecks.of(this, known);
	}

	/** The levels to run: the arrival rates of the open model, the user counts of the others. */
	public List<Level> levels() {
		return ((this.model == LoadShape.OPEN) ? this.ratesPerSecond : this.users).stream().map(this.model::level).toList();
	}

	/** {@code model: <shape>}, in any case; an unknown one names the valid ones. */
	private static final class ModelName extends StdDeserializer<LoadShape> {

		ModelName() {
			super(LoadShape.class);
		}

		@Override
		public LoadShape deserialize(JsonParser parser, DeserializationContext context) {
			String name = parser.getValueAsString();
			try {
				return LoadShape.parse((name != null) ? name : "");
			}
			catch (IllegalArgumentException ex) {
				throw new PlanException("unknown model '" + name + "': valid models are " + LoadShape.names());
			}
		}

	}

	private static String firstLine(String message) {
		if (message == null) {
			return "unreadable";
		}
		int newline = message.indexOf('\n');
		return (newline < 0) ? message : message.substring(0, newline);
	}

}
