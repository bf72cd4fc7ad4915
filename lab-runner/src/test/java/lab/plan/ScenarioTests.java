package lab.plan;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import lab.layout.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ScenarioTests {

	static final String GOOD = "name: t\nusers: [10, 20]\ndelayMs: 100\nholdSeconds: 3\n";

	@ParameterizedTest
	@ValueSource(strings = { "smoke", "quick", "seed", "memory", "observe", "open", "spike", "soak", "capacity", "capacity-map", "start" })
	void everyBundledScenarioParsesAndValidates(String name) {
		Scenario scenario = Scenario.load(name);
		assertThat(scenario.name()).isEqualTo(name);
		assertThat(scenario.problems()).isEmpty();
		assertThat(scenario.levels()).isNotEmpty();
		assertThat(scenario.variants()).containsExactlyElementsOf(Variant.names());
	}

	/** The variance study: fresh JVMs of the two noisiest variants under each cause, probed at one load each, no ladder and no search. */
	@Test
	void theVarianceScenarioStudiesTwoVariantsUnderEachCauseOnFreshJvmsAndRefusesWhatCannotBeOne() {
		Scenario variance = Scenario.load("variance");
		assertThat(variance.problems()).isEmpty();
		assertThat(variance.variance()).isTrue();
		assertThat(variance.searching()).isFalse();
		assertThat(variance.variants()).containsExactly("app-webflux-loom", "app-jetty-loom");
		assertThat(variance.tunings()).containsExactly("default", "heap-fixed");
		assertThat(variance.jvms()).isEqualTo(6);
		assertThat(variance.probesPerJvm()).isEqualTo(2);
		assertThat(variance.levels()).as("each variant's load is its knee, found at run time").isEmpty();
		String study = "name: v\nprobesPerJvm: 2\njvms: 3\ndelayMs: 500\nholdSeconds: 15\n";
		assertThat(parse(study).problems()).isEmpty();
		assertThatThrownBy(() -> parse(study.replace("probesPerJvm: 2", "probesPerJvm: 1"))).hasMessageContaining("probesPerJvm must be 2 to 10");
		assertThatThrownBy(() -> parse(study.replace("jvms: 3", "jvms: 1"))).hasMessageContaining("jvms must be 2 to 20 in a variance study");
		assertThatThrownBy(() -> parse(study + "users: [1000]\nsearchMax: 4000\n")).hasMessageContaining("remove searchMax, or probesPerJvm");
		assertThatThrownBy(() -> parse(study + "model: open\nratesPerSecond: [100]\n")).hasMessageContaining("probes closed users near each variant's knee");
		assertThatThrownBy(() -> parse(study + "aot: [trained]\n")).hasMessageContaining("needs users");
		assertThatThrownBy(() -> parse(study + "variants: [app-webflux-loom, app-jetty-loom]\nusers: [1980]\n"))
			.hasMessageContaining("a variance study takes one load per variant (users, in the variants' order: app-webflux-loom, app-jetty-loom), got [1980]");
		assertThat(parse(study + "variants: [app-webflux-loom, app-jetty-loom]\nusers: [1980, 1260]\n").problems()).isEmpty();
		assertThatThrownBy(() -> parse(GOOD.replace("users: [10, 20]\n", ""))).as("a ladder still needs its users").hasMessageContaining("needs users");
	}

	/** A JVM's load history as a cause: the history arm's JVMs probed once at a multiple of the load first; only in a study. */
	@Test
	void theVarianceHistoryScenarioAddsAHistoryArmAndItsFactorIsChecked() {
		Scenario history = Scenario.load("variance-history");
		assertThat(history.problems()).isEmpty();
		assertThat(history.variance()).isTrue();
		assertThat(history.variants()).containsExactly("app-webflux");
		assertThat(history.preloadFactor()).isEqualTo(2.0);
		String study = "name: v\nprobesPerJvm: 2\njvms: 3\ndelayMs: 500\nholdSeconds: 15\n";
		assertThat(parse(study + "preloadFactor: 1.5\n").problems()).isEmpty();
		assertThatThrownBy(() -> parse(study + "preloadFactor: 1\n")).hasMessageContaining("preloadFactor must be above 1 and at most 4").hasMessageEndingWith("got 1.0");
		assertThatThrownBy(() -> parse(study + "preloadFactor: 5\n")).hasMessageContaining("preloadFactor must be above 1 and at most 4");
		assertThatThrownBy(() -> parse(GOOD + "preloadFactor: 2\n")).hasMessageContaining("preloadFactor is a variance study's history arm: add probesPerJvm");
	}

	/** A probe's length as a cause: the hold arm's probes hold longer; only in a study, and not as long as the others. */
	@Test
	void theVarianceHoldScenarioAddsAHoldArmAndItsLengthIsChecked() {
		Scenario hold = Scenario.load("variance-hold");
		assertThat(hold.problems()).isEmpty();
		assertThat(hold.variants()).containsExactly("app-webflux");
		assertThat(hold.holdArmSeconds()).isEqualTo(45);
		assertThat(hold.holdSeconds()).isEqualTo(15);
		String study = "name: v\nprobesPerJvm: 2\njvms: 3\ndelayMs: 500\nholdSeconds: 15\n";
		assertThat(parse(study + "holdArmSeconds: 30\npreloadFactor: 2\n").problems()).isEmpty();
		assertThatThrownBy(() -> parse(study + "holdArmSeconds: 15\n")).hasMessageContaining("holdArmSeconds must be 5 to 600 and differ from holdSeconds (15)");
		assertThatThrownBy(() -> parse(study + "holdArmSeconds: 4\n")).hasMessageContaining("holdArmSeconds must be 5 to 600");
		assertThatThrownBy(() -> parse(GOOD + "holdArmSeconds: 45\n")).hasMessageContaining("holdArmSeconds is a variance study's hold arm: add probesPerJvm");
	}

	/** The database set's one command: the scenario names its service file, whose arms at Boot's pool run beside the bests. */
	@Test
	void theDbScenarioMeasuresTheDatabaseSetsPoolsInOneStepAndTheirDefaultsBesideTheBests() {
		Scenario db = Scenario.load("db");
		assertThat(db.problems()).isEmpty();
		assertThat(db.service()).isEqualTo("db/pools.yml");
		assertThat(db.halvingSteps()).isEqualTo(1);
		assertThat(db.searchMinutes()).isEqualTo(80.0);
		for (String file : List.of("db/pools.yml", "db/pools-slow.yml", "db/pools-work.yml")) {
			OwnService pools = OwnService.load(Path.of(System.getProperty("lab.root", "..")).resolve(file));
			assertThat(pools.problems()).as(file).isEmpty();
			assertThat(pools.arms()).as(file).hasSize(8);
			assertThat(pools.arms().stream().filter(pools.search()::atDefaults).map(OwnService.ServiceArm::name)).as(file)
				.containsExactly("tomcat-loom-10", "tomcat-platform-10", "webflux-r2dbc-10", "webflux-loom-10");
			assertThat(pools.requests().get(0).path()).as(file).isEqualTo(file.contains("slow") ? "/account/{id}?waitMs=50" : file.contains("work") ? "/account/{id}?waitMs=5&work=100" : "/account/{id}?waitMs=5");
		}
		assertThatExceptionOfType(PlanException.class).isThrownBy(() -> parse(GOOD + "searchMax: 100\nhalvingSteps: 0\n"))
			.withMessageContaining("halvingSteps must be 1 to 5");
		assertThat(parse(GOOD + "searchMax: 100\nhalvingSteps: 1\n").problems()).isEmpty();
		// Not written: no service field in a scenario that names none (a manifest's scenario reads as before).
		assertThat(lab.json.Json.MAPPER.valueToTree(parse(GOOD)).has("service")).isFalse();
	}

	@Test
	void levelsFollowTheModelAndOptionalFieldsHaveDefaults() {
		Scenario closed = parse(GOOD);
		assertThat(closed.levels()).containsExactly(new Level.Closed(10), new Level.Closed(20));
		Scenario open = parse("name: o\nmodel: open\nratesPerSecond: [100]\ndelayMs: 10\nholdSeconds: 3\n");
		assertThat(open.levels()).containsExactly(new Level.Open(100));
		assertThat(closed.warmupSeconds()).isEqualTo(30);
		assertThat(closed.requestTimeoutMs()).isEqualTo(30_000L);
		assertThat(closed.repeat()).isEqualTo(1);
	}

	/** Each bad input gives one line that names the problem and what is valid. */
	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			name: t\\nusers: [1]\\ndelayMs: 1\\nholdSeconds: 1\\nspeed: 3                 | unknown field 'speed'; valid fields are name,
			name: t\\nmodel: wavy\\nusers: [1]\\ndelayMs: 1\\nholdSeconds: 1              | unknown model 'wavy': valid models are closed, open, spike, soak
			name: t\\nvariants: [app-x]\\nusers: [1]\\ndelayMs: 1\\nholdSeconds: 1        | unknown variant 'app-x': valid variants are app-tomcat-loom
			name: t\\ndelayMs: 1\\nholdSeconds: 1                                        | the closed model needs users
			name: t\\nmodel: open\\nusers: [5]\\ndelayMs: 1\\nholdSeconds: 1              | the open model needs ratesPerSecond
			name: t\\nusers: [1]\\ndelayMs: -5\\nholdSeconds: 1                          | delayMs must be between 0 and 60000, got -5
			name: t\\nusers: [0]\\ndelayMs: 5\\nholdSeconds: 1                           | user counts >= 1
			name: t\\nusers: [1]\\nholdSeconds: 1                                       | delayMs and holdSeconds are required
			name: t\\nusers: [1]\\ndelayMs: 500\\nholdSeconds: 1\\nrequestTimeoutMs: 100 | requestTimeoutMs (100) must exceed delayMs (500)
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nprofile: t3-nano        | unknown profile 't3-nano': valid profiles are t2-micro, unconstrained
			name: t\\nusers: [x]\\ndelayMs: 5\\nholdSeconds: 1                           | test.yml:
			name: Bad Name\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1                    | name must be lower-case letters, digits and dashes
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nobserve: [quiet]      | observe must list lean and/or full, got 'quiet'
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nworks: [0, -2]        | works must be serialise-and-hash rounds per request between 0 and 10000
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nworks: [10, 10]       | works must not repeat a value, got [10, 10]
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nresponseBytes: 2000000 | responseBytes must be between 0 and 1048576, got 2000000
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\naot: [warm]            | aot must list none, trained and/or refresh, got 'warm'
			name: t\\nusers: [1, 2]\\ndelayMs: 5\\nholdSeconds: 1\\ncoldStart: true     | a cold start (coldStart: true) loads each service with one closed level
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\ncoldStart: true\\nwarmupSeconds: 5 | a cold start has no warm-up
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\naa: true                | baseline and aa belong to a capacity search (searchMax)
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nsearchMax: 9\\nrounds: 0 | rounds must be between 1 and 20, got 0
			name: t\\nvariants: [app-webflux]\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nsearchMax: 9\\nbaseline: app-jetty-loom | baseline 'app-jetty-loom' must be one of the run's variants: app-webflux
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nsearchMax: 9\\nreferenceMovedPercent: 0 | referenceMovedPercent must be above 0 and at most 100
			name: t\\nusers: [1]\\ndelayMs: 5\\nholdSeconds: 1\\nsearchMax: 9\\nsearchMinutes: 0 | searchMinutes must be above 0 and at most 1440 (a day), got 0.0
			users: [1, 2\\n                                                            | not a valid scenario file
			''                                                                        | the scenario file is empty
			""")
	void badFilesFailWithOneReadableLine(String yaml, String expected) {
		assertThatExceptionOfType(PlanException.class).isThrownBy(() -> parse(yaml.replace("\\n", "\n")))
			.satisfies(ex -> {
				assertThat(ex.getMessage()).startsWith("test.yml:").contains(expected.strip()).doesNotContain("\n");
			});
	}

	@ParameterizedTest
	@ValueSource(strings = { "nope", "quick2" })
	void anUnknownScenarioNamesTheValidOnes(String name) {
		assertThatExceptionOfType(PlanException.class).isThrownBy(() -> Scenario.load(name))
			.withMessage("unknown scenario '" + name + "': use one of capacity, capacity-map, capacity-open, cost, db, memory, observe, open, quick, seed, service, service-capacity, smoke, soak, spike, start, tune, variance, variance-history, variance-hold, waves, or the path of a scenario file");
	}

	/** The bundled scenarios are the files of the scenarios folder: one added there is one more name, no list to keep. */
	@Test
	void theBundledScenariosAreTheFilesOfTheirFolder() throws Exception {
		Path folder = Path.of(System.getProperty("lab.root", "..")).resolve("lab-runner/src/main/resources/scenarios");
		try (var files = java.nio.file.Files.list(folder)) {
			assertThat(Scenario.bundledNames()).containsExactlyElementsOf(
					files.map(file -> file.getFileName().toString().replace(".yml", "")).sorted().toList());
		}
		for (String name : Scenario.bundledNames()) {
			assertThat(Scenario.load(name).name()).as(name).isNotBlank();
		}
	}

	static Scenario parse(String yaml) {
		return Scenario.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "test.yml");
	}

}
