package lab.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A service file: read as documented, every mistake one line naming its field and the fix. */
class OwnServiceTests {

	@TempDir
	Path dir;

	static final String COMPLETE = """
			name: orders
			jar: build/orders.jar
			port: server.port
			readiness: /actuator/health
			metrics: {path: /actuator/prometheus, port: management.server.port}
			requests:
			  - {name: read, path: /orders/7?waitMs=20, weight: 3}
			  - {name: write, method: post, path: /orders, body: '{"item": "tea"}', headers: {Content-Type: application/json}, status: 201}
			properties: {spring.datasource.hikari.connection-timeout: 5000}
			jvm: [-Xss512k]
			arms:
			  - {name: vt-on, properties: {spring.threads.virtual.enabled: true, spring.datasource.hikari.maximum-pool-size: 10}}
			  - {name: vt-off, properties: {spring.threads.virtual.enabled: false}, jvm: [-Xmx384m], jdk: "21"}
			target: p99<=200ms,errors<=0.1%
			needs:
			  postgres: {database: orders, init: schema.sql}
			""";

	Path write(String text) throws Exception {
		Files.createDirectories(this.dir.resolve("build"));
		Files.writeString(this.dir.resolve("build/orders.jar"), "not read here");
		Files.writeString(this.dir.resolve("schema.sql"), "SELECT 1;");
		Path file = this.dir.resolve("service.yml");
		Files.writeString(file, text);
		return file;
	}

	@Test
	void aCompleteFileIsReadAsDocumented() throws Exception {
		OwnService service = OwnService.load(write(COMPLETE));
		assertThat(service.jar()).isEqualTo(this.dir.resolve("build/orders.jar").toAbsolutePath());
		assertThat(service.labels()).containsExactly("orders-vt-on", "orders-vt-off");
		assertThat(service.requests()).hasSize(2);
		OwnService.Request write = service.requests().get(1);
		assertThat(write.method()).isEqualTo("POST");
		assertThat(write.headers()).containsEntry("Content-Type", "application/json");
		assertThat(write.status()).isEqualTo(201);
		assertThat(service.requests().get(0).method()).isEqualTo("GET");
		assertThat(service.requests().get(0).status()).isEqualTo(200);
		// The arms' command lines: everyone's properties, then the arm's (YAML's true and 10 given as text); everyone's JVM options, then the arm's.
		OwnService.ServiceArm on = service.arms().get(0);
		OwnService.ServiceArm off = service.arms().get(1);
		assertThat(service.arguments(on)).containsExactly("--spring.datasource.hikari.connection-timeout=5000", "--spring.threads.virtual.enabled=true",
				"--spring.datasource.hikari.maximum-pool-size=10");
		assertThat(service.arguments(off)).containsExactly("--spring.datasource.hikari.connection-timeout=5000", "--spring.threads.virtual.enabled=false");
		assertThat(service.jvmOptions(on)).containsExactly("-Xss512k");
		assertThat(service.jvmOptions(off)).containsExactly("-Xss512k", "-Xmx384m");
		assertThat(off.jdk()).isEqualTo("21");
		assertThat(service.describe(off)).isEqualTo("orders: spring.threads.virtual.enabled=false -Xmx384m JDK 21");
		assertThat(service.needs().postgres().init()).isEqualTo(this.dir.resolve("schema.sql").toAbsolutePath());
		assertThat(service.needs().postgres().startedHere()).isTrue();
		assertThat(service.metrics().port()).isEqualTo("management.server.port");
	}

	@Test
	void theDefaultsAreSpringBootsPortAndHealth() throws Exception {
		OwnService service = OwnService.load(write("name: s\njar: build/orders.jar\nrequests: [{path: /}]\narms: [{name: a}]\n"));
		assertThat(service.port()).isEqualTo("server.port");
		assertThat(service.readiness()).isEqualTo("/actuator/health");
		assertThat(service.metrics()).isNull();
		assertThat(service.needs().postgres()).isNull();
		assertThat(service.arguments(service.arms().get(0))).isEmpty();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			name: Orders                              | name must be lower-case letters, digits and dashes (the rows are <name>-<arm>), got 'Orders'
			name: app-webflux                         | name 'app-webflux' would name rows like the lab's own variants: choose another
			jar: build/nope.jar                       | does not exist: build it first, or fix the path (relative to this file)
			readiness: actuator/health                | readiness must be a path starting with /, e.g. /actuator/health
			metrics: {path: prometheus}               | metrics.path must be the path of a Prometheus endpoint starting with /
			requests: []                              | requests must list at least one request, e.g. - {path: /orders/1}
			requests: [{path: orders}]                | requests[0].path must start with /, e.g. /orders/1?expand=items, got 'orders'
			requests: [{path: /, method: FETCH}]      | requests[0].method must be one of GET, POST, PUT, PATCH, DELETE or HEAD, got 'FETCH'
			requests: [{path: /, weight: 0}]          | requests[0].weight must be a whole number of 1 or more
			requests: [{path: /, status: 42}]         | requests[0].status must be an HTTP status, e.g. 200, got 42
			requests: [{path: /, target: p99<=fast}]  | requests[0].target: latency target 'p99<=fast': cannot read 'p99<=fast'
			arms: []                                  | arms must list at least one arm, e.g. - {name: vt-on, properties: {spring.threads.virtual.enabled: true}}
			arms: [{name: a}, {name: a}]              | arms[1].name 'a' is used twice: each arm is a row, name each once
			arms: [{name: A}]                         | arms[0].name must be lower-case letters, digits and dashes, got 'A'
			arms: [{name: a, jvm: [Xmx1g]}]           | arms[0].jvm: JVM option 'Xmx1g' must start with '-', e.g. -Xmx512m
			arms: [{name: a, properties: {-Dx: 1}}]   | arms[0].properties: '-Dx' must be a Spring property name
			target: p98<=1s,errors<=1%                | target: latency target 'p98<=1s,errors<=1%': cannot read 'p98<=1s'
			needs: {postgres: {database: Orders}}     | needs.postgres.database must be lower-case letters, digits and underscores, got 'Orders'
			needs: {postgres: {url: 'http://db'}}     | needs.postgres.url must be a JDBC URL, jdbc:postgresql://host:port/database, got 'http://db'
			needs: {postgres: {init: nope.sql}}       | nope.sql does not exist: give an SQL file relative to this file
			needs: {postgres: {placement: cloud}}     | needs.postgres.placement must be one of service, harness (service: on the service's core; harness: beside the injector; another host: give url instead), got 'cloud'
			needs: {postgres: {placement: harness, url: 'jdbc:postgresql://db:5432/o'}} | needs.postgres.placement places a PostgreSQL the lab starts; with url the database runs elsewhere: give one of them
			colour: blue                              | unknown field 'colour' at the top; a service file has name, jar, port, readiness, metrics, requests
			arms: [{name: a, colour: blue}]           | unknown field 'colour' at arms[0]
			requests: [{path: /, weight: many}]       | requests[0].weight: 
			""")
	void aMistakeIsOneLineNamingTheFieldAndTheFix(String line, String expected) throws Exception {
		// The minimal valid file, with one of its lines replaced (or one added).
		List<String> lines = new java.util.ArrayList<>(List.of("name: orders", "jar: build/orders.jar", "requests: [{path: /}]", "arms: [{name: a}]"));
		String field = line.substring(0, line.indexOf(':'));
		lines.removeIf(existing -> existing.startsWith(field + ":"));
		lines.add(line);
		Path file = write(String.join("\n", lines) + "\n");
		assertThatThrownBy(() -> OwnService.load(file)).isInstanceOf(PlanException.class)
			.satisfies(ex -> assertThat(ex.getMessage()).contains(expected).startsWith(file.toString()).doesNotContain("\n"));
	}

	@Test
	void aMissingOrEmptyFileIsOneLine() throws Exception {
		assertThatThrownBy(() -> OwnService.load(this.dir.resolve("none.yml"))).hasMessage("--service " + this.dir.resolve("none.yml")
				+ ": no such file; give the path of a service YAML file (docs/your-service.md)");
		Path empty = write("");
		assertThatThrownBy(() -> OwnService.load(empty)).hasMessageContaining("the service file is empty");
		Path missingJar = write("name: s\nrequests: [{path: /}]\narms: [{name: a}]\n");
		assertThatThrownBy(() -> OwnService.load(missingJar)).hasMessageContaining("jar is missing: give the path of the service's executable jar");
	}

	@Test
	void aFeedGivesARequestItsValuesFromARangeOrACsvFileAndABadOneIsOneLine() throws Exception {
		Files.writeString(this.dir.resolve("owners.csv"), "lastName,city\nDavis,Madison\n\"Black, Jr.\",Monona\n");
		Path file = write("""
				name: orders
				jar: build/orders.jar
				requests:
				  - {name: order, path: '/orders/{id}?waitMs=20', feed: {values: {id: 1-3, shard: 7-8}}, thinkMs: 100}
				  - {name: search, path: '/owners?lastName={lastName}', headers: {X-City: '{city}'}, feed: {file: owners.csv, strategy: random}}
				arms: [{name: a}]
				""");
		OwnService service = OwnService.load(file);
		Feed range = service.requests().get(0).feed();
		// Ranges in step, the shorter starting over; circular by default.
		assertThat(range.records()).containsExactly(java.util.Map.of("id", "1", "shard", "7"), java.util.Map.of("id", "2", "shard", "8"),
				java.util.Map.of("id", "3", "shard", "7"));
		assertThat(range.strategy()).isEqualTo("circular");
		assertThat(service.requests().get(0).thinkMs()).isEqualTo(100);
		Feed csv = service.requests().get(1).feed();
		assertThat(csv.file()).as("relative to the service file").isEqualTo(this.dir.resolve("owners.csv"));
		assertThat(csv.records()).containsExactly(java.util.Map.of("lastName", "Davis", "city", "Madison"),
				java.util.Map.of("lastName", "Black, Jr.", "city", "Monona"));
		// As the simulation reads it: the values beside the mix, round-tripped.
		lab.layout.RequestMix.writeFeed(csv.records(), this.dir.resolve("feed-1.tsv"));
		assertThat(lab.layout.RequestMix.readFeed(this.dir.resolve("feed-1.tsv"))).containsExactly(java.util.Map.of("lastName", "Davis", "city", "Madison"),
				java.util.Map.of("lastName", "Black, Jr.", "city", "Monona"));
		var mix = service.requests().get(1).toMix("feed-1.tsv");
		assertThat(mix.feed()).isEqualTo("feed-1.tsv");
		assertThat(mix.strategy()).isEqualTo("random");

		Files.writeString(this.dir.resolve("short.csv"), "id,name\n1\n");
		Files.writeString(this.dir.resolve("header-only.csv"), "id\n");
		for (String[] bad : new String[][] {
				{ "{path: '/o/{id}', feed: {values: {id: 5-1}}}", "requests[0].feed.values.id must run upwards and hold at most 1000000 values, got '5-1'" },
				{ "{path: '/o/{id}', feed: {values: {id: many}}}", "requests[0].feed.values.id must be a range of whole numbers from-to, e.g. 1-1000, got 'many'" },
				{ "{path: '/o/{id}', feed: {file: nope.csv}}", "requests[0].feed.file " + this.dir.resolve("nope.csv") + " does not exist" },
				{ "{path: '/o/{id}', feed: {file: short.csv}}", "requests[0].feed.file " + this.dir.resolve("short.csv") + " is not a CSV file with a header line" },
				{ "{path: '/o/{id}', feed: {file: header-only.csv}}", "has a header but no values: add a line of values under it" },
				{ "{path: /o, feed: {values: {id: 1-3}}}", "requests[0].feed feeds [id] but its path, headers and body name none of them: write {id} where the value goes" },
				{ "{path: '/o/{id}', feed: {values: {id: 1-3}, strategy: queue}}", "requests[0].feed.strategy must be circular (in order, then again) or random, got 'queue'" },
				{ "{path: '/o/{id}', feed: {values: {id: 1-3}, file: owners.csv}}", "requests[0].feed needs either values (e.g. {id: 1-1000}) or file" },
				{ "{path: /, thinkMs: -1}", "requests[0].thinkMs must be between 0 and 60000 (ms its user pauses after it), got -1" } }) {
			failsInOneLine("requests: [" + bad[0] + "]\narms: [{name: a}]", bad[1]);
		}
	}

	@Test
	void armsOfJarsOfTheirOwnAreServicesComparedInOneSearch() throws Exception {
		write("");
		Files.writeString(this.dir.resolve("build/other.jar"), "not read here");
		OwnService service = OwnService.load(write("""
				name: set
				requests: [{path: /}]
				arms:
				  - {name: a, jar: build/orders.jar}
				  - {name: b, jar: build/other.jar, properties: {lab.db.pool-size: 25}}
				"""));
		assertThat(service.jar()).isNull();
		assertThat(service.jar(service.arms().get(0))).isEqualTo(this.dir.resolve("build/orders.jar").toAbsolutePath());
		assertThat(service.jar(service.arms().get(1))).isEqualTo(this.dir.resolve("build/other.jar").toAbsolutePath());
		assertThat(service.describe(service.arms().get(1))).isEqualTo("set: other.jar lab.db.pool-size=25");
		// An arm without a jar of its own needs the file's; a jar that is not there is named by its arm.
		failsInOneLine("requests: [{path: /}]\narms: [{name: a, jar: build/nope.jar}]", "arms[0].jar " + this.dir.resolve("build/nope.jar").toAbsolutePath()
				+ " does not exist: build it first");
		Path noJar = write("name: set\nrequests: [{path: /}]\narms: [{name: a, jar: build/orders.jar}, {name: b}]\n");
		assertThatThrownBy(() -> OwnService.load(noJar)).hasMessageContaining("jar is missing: give the path of the service's executable jar, relative to this file (or a jar in every arm)");
	}

	/** A file of the minimal name and jar plus {@code rest} stops in one line containing {@code expected}. */
	private void failsInOneLine(String rest, String expected) throws Exception {
		Path badFile = write("name: orders\njar: build/orders.jar\n" + rest + "\n");
		assertThatThrownBy(() -> OwnService.load(badFile)).as(rest).isInstanceOf(PlanException.class)
			.satisfies(ex -> assertThat(ex.getMessage()).contains(expected).doesNotContain("\n"));
	}

	@Test
	void searchAxesBecomeTheArmsLessTheExcludedAndABadAxisIsOneLine() throws Exception {
		Path file = write("""
				name: orders
				jar: build/orders.jar
				requests: [{path: /}]
				search:
				  axes:
				    spring.threads.virtual.enabled: [true, false]
				    spring.datasource.hikari.maximum-pool-size: [10, 20, 50]
				    jvm: [[-Xmx256m], [-Xmx512m]]
				  exclude: [{spring.datasource.hikari.maximum-pool-size: 50, jvm: [-Xmx256m]}]
				""");
		OwnService service = OwnService.load(file);
		// 2 x 3 x 2 = 12, less the two with pool 50 on 256 MiB.
		assertThat(service.arms()).hasSize(10);
		assertThat(service.labels()).startsWith("orders-true-10-xmx256m", "orders-true-10-xmx512m", "orders-true-20-xmx256m")
			.doesNotContain("orders-true-50-xmx256m", "orders-false-50-xmx256m").contains("orders-false-50-xmx512m");
		OwnService.ServiceArm arm = service.arms().get(0);
		assertThat(arm.properties()).containsEntry("spring.threads.virtual.enabled", "true").containsEntry("spring.datasource.hikari.maximum-pool-size", "10");
		assertThat(arm.jvm()).containsExactly("-Xmx256m");
		assertThat(arm.description()).isEqualTo("spring.threads.virtual.enabled=true spring.datasource.hikari.maximum-pool-size=10 -Xmx256m");
		// A sample of the product, seeded: the same arms each time.
		Axes sampled = new Axes(service.search().axes(), List.of(), 4, 7L);
		assertThat(sampled.arms()).hasSize(4).isEqualTo(new Axes(service.search().axes(), List.of(), 4, 7L).arms());
		// A constraint: no heap above 384 MiB leaves the four 256 MiB arms (pool 50 on 256 MiB is excluded).
		Axes bounded = new Axes(service.search().axes(), service.search().exclude(), null, null, "384m");
		assertThat(bounded.arms()).hasSize(4).allSatisfy(a -> assertThat(a.jvm()).containsExactly("-Xmx256m"));
		assertThat(new Axes(service.search().axes(), List.of(), null, null, "1g").arms()).hasSize(12);
		assertThat(Axes.bytes("1g")).isEqualTo(1L << 30);
		assertThat(Axes.bytes("768M")).isEqualTo(768L << 20);
		assertThat(Axes.bytes("lots")).isEqualTo(-1);
		// Read back as the manifest keeps it (arms and search both): the same arms.
		OwnService again = lab.json.Json.MAPPER.treeToValue(lab.json.Json.MAPPER.valueToTree(service), OwnService.class);
		assertThat(again.arms()).isEqualTo(service.arms());
		assertThat(again.problems()).isEmpty();

		for (String[] bad : new String[][] {
				{ "search: {axes: {spring.threads.virtual.enabled: [true]}}", "search.axes.spring.threads.virtual.enabled must list two values or more" },
				{ "search: {axes: {jvm: [Xmx1g, Xmx2g]}}", "search.axes.jvm must list lists of JVM options, e.g. [[-Xmx256m], [-Xmx512m]]" },
				{ "search: {axes: {a: [1, 2]}, exclude: [{b: 1}]}", "search.exclude names 'b', which is not an axis: use one of [a]" },
				{ "search: {axes: {a: [1, 2, 3, 4, 5, 6, 7, 8, 9], b: [1, 2, 3, 4, 5, 6, 7, 8]}}", "search.axes make 72 arms, more than 64: add search.sample" },
				{ "search: {axes: {a: [1, 2, 3, 4, 5, 6, 7, 8]}}\narms: [{name: x}, {name: y}, {name: z}, {name: u}, {name: v}, {name: w}, {name: q}, {name: r}, {name: s}]",
						"arms crossed with search.axes make 72 arms, more than 64" },
				{ "search: {axes: {jvm: [[-Xmx1g], [-Xmx2g]]}, maxHeap: a lot}", "search.maxHeap must be a size like -Xmx takes, e.g. 768m or 1g, got 'a lot'" },
				{ "search: {axes: {a: [1, 2], jvm: [[-Xmx1g], [-Xmx2g]]}, defaults: {b: 1}}", "search.defaults names 'b', which is not a property axis: use one of [a]" },
				{ "search: {axes: {a: [1, 2]}, defaults: {a: 3}}", "search.defaults.a must be one of its values [1, 2], got 3" } }) {
			failsInOneLine("requests: [{path: /}]\n" + bad[0], bad[1]);
		}
	}

	@Test
	void armsAndSearchAxesTogetherCrossEachArmWithTheAxesInAGroupOfItsOwn() throws Exception {
		Path file = write("""
				name: set
				requests: [{path: /}]
				properties: {lab.db.pool-size: 10}
				arms:
				  - {name: tomcat-loom, jar: a.jar, jvm: [-Xss512k]}
				  - {name: webflux-r2dbc, jar: b.jar, description: WebFlux and R2DBC}
				search:
				  axes:
				    lab.db.pool-size: [10, 25, 50]
				  defaults: {lab.db.pool-size: 10}
				""");
		Files.createFile(file.resolveSibling("a.jar"));
		Files.createFile(file.resolveSibling("b.jar"));
		OwnService service = OwnService.load(file);
		assertThat(service.labels()).containsExactly("set-tomcat-loom-10", "set-tomcat-loom-25", "set-tomcat-loom-50", "set-webflux-r2dbc-10",
				"set-webflux-r2dbc-25", "set-webflux-r2dbc-50");
		assertThat(service.arms()).extracting(OwnService.ServiceArm::group).containsExactly("tomcat-loom", "tomcat-loom", "tomcat-loom", "webflux-r2dbc",
				"webflux-r2dbc", "webflux-r2dbc");
		OwnService.ServiceArm arm = service.arms().get(1);
		assertThat(arm.properties()).containsEntry("lab.db.pool-size", "25");
		assertThat(arm.jvm()).containsExactly("-Xss512k");
		assertThat(service.jar(arm)).isEqualTo(file.getParent().resolve("a.jar"));
		assertThat(service.arms().get(4).description()).isEqualTo("WebFlux and R2DBC; lab.db.pool-size=25");
		// The library's default pool: one arm of each group holds it, the one a tune runs beside its group's best.
		assertThat(service.arms().stream().filter(service.search()::atDefaults).map(OwnService.ServiceArm::name))
			.containsExactly("tomcat-loom-10", "webflux-r2dbc-10");
		assertThat(service.problems()).isEmpty();
		// Read back as the manifest keeps it: the crossed arms as they were, not crossed again.
		OwnService again = lab.json.Json.MAPPER.treeToValue(lab.json.Json.MAPPER.valueToTree(service), OwnService.class);
		assertThat(again.arms()).isEqualTo(service.arms());
		assertThat(again.problems()).isEmpty();
	}

	@Test
	void theDatabasesPlacementIsInThePlanAndItsDryRun() throws Exception {
		OwnService service = OwnService.load(write(COMPLETE));
		assertThat(service.needs().postgres().placement()).as("not given").isNull();
		assertThat(service.needs().postgres().placed()).as("the default: beside the service").isEqualTo(DatabasePlacement.SERVICE);
		Scenario scenario = new Overrides(service.labels(), List.of(25), null, null, null, null, null, null, null, null, null).applyTo(Scenario.load("service"));
		Host host = new Host(2, 20_000, 20_000, "32768 60999", 4096);
		RunPlan beside = RunPlan.of(scenario, Path.of(System.getProperty("lab.root", "..")), Path.of("out"), Path.of(System.getProperty("java.home")),
				List.of(), host, Remote.NONE, service);
		assertThat(beside.describe()).contains("needs PostgreSQL: started here").contains("placement service: on the service's core (CPU 0)")
			.contains("its CPU is its own figure, never the harness's");
		assertThat(DatabasePlacement.taskset(DatabasePlacement.SERVICE, Pinning.of(beside))).isEqualTo("0");
		OwnService harness = service.withPostgres(service.needs().postgres().placedAt(DatabasePlacement.HARNESS));
		RunPlan there = RunPlan.of(scenario, Path.of(System.getProperty("lab.root", "..")), Path.of("out"), Path.of(System.getProperty("java.home")),
				List.of(), host, Remote.NONE, harness);
		assertThat(there.describe()).contains("placement harness: on the harness's cores (CPU 1) beside the injector");
		assertThat(DatabasePlacement.taskset(DatabasePlacement.HARNESS, Pinning.of(there))).isEqualTo("1");
		assertThat(DatabasePlacement.cores(DatabasePlacement.HARNESS, Pinning.of(there))).containsExactly(1);
		// Placed in the file: read as written.
		OwnService placed = OwnService.load(write(COMPLETE.replace("postgres: {database: orders, init: schema.sql}",
				"postgres: {database: orders, init: schema.sql, placement: harness}")));
		assertThat(placed.needs().postgres().placed()).isEqualTo(DatabasePlacement.HARNESS);
	}

}
