package lab.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;
import lab.json.Json;
import lab.layout.LatencyTarget;
import lab.layout.RequestMix;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A service of the user's own, described in a small YAML file ({@code ./lab run --service FILE}; docs/your-service.md
 * has a complete example): its jar, the property that sets its port, its readiness path, the requests to send, the
 * arms to compare (property and JVM-option sets, a JDK) and a latency target; optionally the Prometheus endpoint it
 * exposes and a PostgreSQL it needs. Each arm is measured as a variant of its own, named {@code <name>-<arm>}, and
 * judged the way the lab judges its own: nothing of the lab's meters is assumed inside it.
 *
 * @param name lower-case letters, digits and dashes: the rows are {@code <name>-<arm>}
 * @param jar the service's executable jar, relative to the file
 * @param port the Spring property the lab sets to a free port ({@code server.port} by default)
 * @param readiness the path that answers 200 once the service is ready ({@code /actuator/health} by default)
 * @param metrics where its Prometheus meters answer, if anywhere
 * @param requests what each virtual user sends, by weight
 * @param properties Spring properties every arm gets
 * @param jvm JVM options every arm gets, after the profile's
 * @param arms the ways the service is run side by side (at least one)
 * @param target the latency target every level is judged by ({@code p99<=200ms,errors<=0.1%}); none: the scenario's
 * @param needs what must run before it (a PostgreSQL)
 * @param warmupMaxSeconds the warm-up's cap for this service (a service whose JIT takes long to settle gets longer than
 * the scenario's; {@code --warmup-max-seconds} overrides it); none: the scenario's
 * @param search axes of settings whose product becomes the arms ({@link Axes}), instead of arms written one by one
 */
public record OwnService(String name, Path jar, String port, String readiness, Metrics metrics, List<Request> requests,
		Map<String, String> properties, List<String> jvm, List<ServiceArm> arms, LatencyTarget target, Needs needs, Integer warmupMaxSeconds,
		Axes search) {

	private static final YAMLMapper yaml = YAMLMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).addModule(Json.TARGET).build();

	private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD");

	/**
	 * @param path the path of the Prometheus text endpoint, e.g. {@code /actuator/prometheus}
	 * @param port the Spring property that puts it on a port of its own ({@code management.server.port}): the lab sets
	 * it to a free port, so a scrape never waits behind the load; none: the service's own port
	 */
	public record Metrics(String path, String port) {
	}

	/**
	 * @param name a short name for the report
	 * @param method GET by default
	 * @param path the path and query, from {@code /}
	 * @param headers sent with it
	 * @param body sent with it (a POST's JSON, say)
	 * @param weight its share of the requests, relative to the others' (1 by default)
	 * @param status the status that counts as answered (200 by default)
	 * @param target its own latency target, as the file's ({@code p99<=300ms}), judged on its own figures; none by default
	 * @param feed values it takes in turn, named {@code {key}} in its path, headers or body ({@link Feed}); none by default
	 * @param thinkMs how long its user pauses after it (not part of its response time); 0 by default
	 */
	public record Request(String name, String method, String path, Map<String, String> headers, String body, Integer weight, Integer status,
			String target, Feed feed, Integer thinkMs) {

		public Request {
			method = (method != null) ? method.toUpperCase(Locale.ROOT) : "GET";
			headers = (headers != null) ? new LinkedHashMap<>(headers) : new LinkedHashMap<>();
			weight = (weight != null) ? weight : 1;
			status = (status != null) ? status : 200;
			thinkMs = (thinkMs != null) ? thinkMs : 0;
		}

		/** As the simulation reads it, its feed's values in {@code feedFile} (null without one); unnamed, it is named by its method and path without the query. */
		public RequestMix.Request toMix(String feedFile) {
			return new RequestMix.Request((this.name != null) ? this.name : this.method + " " + this.path.replaceFirst("\\?.*", ""),
					this.method, this.path, this.headers, this.body, this.weight, this.status, this.target, (this.feed != null) ? feedFile : null,
					(this.feed != null) ? this.feed.strategy() : null, this.thinkMs);
		}

	}

	/**
	 * One way the service runs.
	 *
	 * @param name lower-case letters, digits and dashes
	 * @param description one line for the report (default: its properties and options)
	 * @param properties Spring properties on top of the service's ({@code spring.threads.virtual.enabled: true})
	 * @param jvm JVM options on top of everyone's ({@code -Xmx512m})
	 * @param jdk the JDK it runs on: 21, 25 or a path (default: the run's)
	 * @param jar a jar of its own, relative to the file (default: the file's): arms of different services in one search
	 * @param group the arm of the file it was made from, when the file gives arms and search axes both (each arm crossed
	 * with the axes: the settings search then names a best per group); none otherwise
	 */
	public record ServiceArm(String name, String description, Map<String, String> properties, List<String> jvm, String jdk, Path jar,
			@JsonInclude(JsonInclude.Include.NON_NULL) String group) {

		public ServiceArm {
			properties = (properties != null) ? new LinkedHashMap<>(properties) : new LinkedHashMap<>();
			jvm = (jvm != null) ? List.copyOf(jvm) : List.of();
		}

		/** An arm of the file's jar. */
		public ServiceArm(String name, String description, Map<String, String> properties, List<String> jvm, String jdk) {
			this(name, description, properties, jvm, jdk, null, null);
		}

	}

	/**
	 * @param postgres a PostgreSQL the lab starts (or one already running) before the service
	 * @param downstream the lab's downstream, an HTTP dependency that answers after the delay each request asks for
	 * ({@code GET /address/{delayMs}}), started as for the lab's own variants; its base URL goes to the property named
	 */
	public record Needs(PostgresNeed postgres, Downstream downstream) {
	}

	/** @param property the Spring property that takes the downstream's base URL, e.g. {@code lab.downstream.base-url} */
	public record Downstream(String property) {
	}

	/** This service with its PostgreSQL need replaced (placed elsewhere by {@code --db-placement}). */
	public OwnService withPostgres(PostgresNeed postgres) {
		return new OwnService(this.name, this.jar, this.port, this.readiness, this.metrics, this.requests, this.properties, this.jvm, this.arms,
				this.target, new Needs(postgres, this.needs.downstream()), this.warmupMaxSeconds, this.search);
	}

	public OwnService {
		port = (port != null) ? port : "server.port";
		readiness = (readiness != null) ? readiness : "/actuator/health";
		requests = (requests != null) ? List.copyOf(requests) : List.of();
		properties = (properties != null) ? new LinkedHashMap<>(properties) : new LinkedHashMap<>();
		jvm = (jvm != null) ? List.copyOf(jvm) : List.of();
		arms = (arms != null) ? List.copyOf(arms) : List.of();
		needs = (needs != null) ? needs : new Needs(null, null);
		if (search != null && search.problems().isEmpty()) {
			if (arms.isEmpty()) {
				// The axes' product is the arms (a file read back from a manifest holds both, the same).
				arms = search.arms();
			}
			else if (!arms.equals(search.arms()) && arms.stream().allMatch(arm -> arm.group() == null)) {
				// Arms and axes both: each arm crossed with the axes, in groups (read back from a manifest, already crossed).
				arms = search.crossed(arms);
			}
		}
	}

	/** The jar an arm runs: its own, else the file's. */
	public Path jar(ServiceArm arm) {
		return (arm.jar() != null) ? arm.jar() : this.jar;
	}

	/** The row of an arm: {@code <name>-<arm>}. */
	public String label(ServiceArm arm) {
		return this.name + "-" + arm.name();
	}

	/** Every arm's row, in the file's order: the variants of the run. */
	public List<String> labels() {
		return this.arms.stream().map(this::label).toList();
	}

	/** The arms as the run's variants ({@link Variant#measureOwn}): each row's name and its one-line description. */
	public List<Variant> variants() {
		return this.arms.stream().map(arm -> new Variant(label(arm), describe(arm), 0)).toList();
	}

	/** The arm whose row is {@code label}. */
	public java.util.Optional<ServiceArm> arm(String label) {
		return this.arms.stream().filter(arm -> label(arm).equals(label)).findFirst();
	}

	/** One line per arm for the report: its description, else what it sets. */
	public String describe(ServiceArm arm) {
		if (arm.description() != null) {
			return arm.description();
		}
		List<String> parts = new ArrayList<>();
		arm.properties().forEach((key, value) -> parts.add(key + "=" + value));
		parts.addAll(arm.jvm());
		if (arm.jar() != null) {
			parts.add(0, arm.jar().getFileName().toString());
		}
		if (arm.jdk() != null) {
			parts.add("JDK " + arm.jdk());
		}
		return this.name + (parts.isEmpty() ? "" : ": " + String.join(" ", parts));
	}

	/** The Spring arguments an arm gets: everyone's properties, then its own (which win). */
	public List<String> arguments(ServiceArm arm) {
		Map<String, String> all = new LinkedHashMap<>(this.properties);
		all.putAll(arm.properties());
		return all.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
	}

	/** The JVM options an arm gets: everyone's, then its own. */
	public List<String> jvmOptions(ServiceArm arm) {
		List<String> all = new ArrayList<>(this.jvm);
		all.addAll(arm.jvm());
		return all;
	}

	/** Reads and checks a service file: every problem as one line naming the field and the fix ({@link PlanException}). */
	public static OwnService load(Path file) {
		if (!Files.isRegularFile(file)) {
			throw new PlanException("--service " + file + ": no such file; give the path of a service YAML file (docs/your-service.md)");
		}
		OwnService service;
		try {
			byte[] text = Files.readAllBytes(file);
			if (new String(text, java.nio.charset.StandardCharsets.UTF_8).lines().allMatch(line -> line.isBlank() || line.strip().startsWith("#"))) {
				throw new PlanException(file + ": the service file is empty; docs/your-service.md has a complete example");
			}
			service = yaml.readValue(text, OwnService.class);
		}
		catch (UnrecognizedPropertyException ex) {
			String at = path(ex);
			at = at.equals(ex.getPropertyName()) ? "the top" : at.substring(0, at.length() - ex.getPropertyName().length() - 1);
			throw new PlanException(file + ": unknown field '" + ex.getPropertyName() + "' at " + at
					+ "; a service file has name, jar, port, readiness, metrics, requests, properties, jvm, arms, search, target, needs and warmupMaxSeconds (docs/your-service.md)");
		}
		catch (DatabindException ex) {
			throw new PlanException(file + ": " + path(ex) + ": " + ex.getOriginalMessage().lines().findFirst().orElse("not a valid service file"));
		}
		catch (IOException | tools.jackson.core.JacksonException ex) {
			throw new PlanException(file + ": not a YAML service file (" + ex.getMessage().lines().findFirst().orElse("") + ")");
		}
		if (service == null) {
			throw new PlanException(file + ": the service file is empty; docs/your-service.md has a complete example");
		}
		Path base = file.toAbsolutePath().getParent();
		service = service.resolvedAgainst(base);
		List<String> problems = service.problems();
		if (!problems.isEmpty()) {
			throw new PlanException(file + ": " + String.join("; ", problems));
		}
		return service;
	}

	private static String path(DatabindException ex) {
		String path = ex.getPath().stream().map(ref -> (ref.getPropertyName() != null) ? ref.getPropertyName() : "[" + ref.getIndex() + "]")
			.reduce((a, b) -> b.startsWith("[") ? a + b : a + "." + b).orElse("the top");
		return path;
	}

	/** Relative paths of the file (jar, init SQL) against its directory. */
	OwnService resolvedAgainst(Path base) {
		Path jarPath = (this.jar != null) ? base.resolve(this.jar).normalize() : null;
		Needs resolvedNeeds = this.needs;
		if (this.needs.postgres() != null && this.needs.postgres().init() != null) {
			PostgresNeed pg = this.needs.postgres();
			resolvedNeeds = new Needs(new PostgresNeed(pg.database(), base.resolve(pg.init()).normalize(), pg.url(), pg.username(), pg.password(), pg.placement()),
					this.needs.downstream());
		}
		List<ServiceArm> resolvedArms = this.arms.stream().map(a -> (a.jar() == null) ? a
				: new ServiceArm(a.name(), a.description(), a.properties(), a.jvm(), a.jdk(), base.resolve(a.jar()).normalize(), a.group())).toList();
		List<Request> resolvedRequests = this.requests.stream().map(r -> (r.feed() == null) ? r : new Request(r.name(), r.method(), r.path(),
				r.headers(), r.body(), r.weight(), r.status(), r.target(), r.feed().resolvedAgainst(base), r.thinkMs())).toList();
		return new OwnService(this.name, jarPath, this.port, this.readiness, this.metrics, resolvedRequests, this.properties, this.jvm, resolvedArms,
				this.target, resolvedNeeds, this.warmupMaxSeconds, this.search);
	}

	/** Every problem of the file, each naming its field and the fix; empty when it can run. */
	public List<String> problems() {
		List<String> problems = new ArrayList<>();
		if (this.name == null || !this.name.matches("[a-z0-9][a-z0-9-]*")) {
			problems.add("name must be lower-case letters, digits and dashes (the rows are <name>-<arm>), got '" + this.name + "'");
		}
		else if (Variant.ALL.stream().anyMatch(v -> v.name().equals(this.name) || v.name().startsWith(this.name + "-"))) {
			problems.add("name '" + this.name + "' would name rows like the lab's own variants: choose another");
		}
		if (this.jar == null && (this.arms.isEmpty() || this.arms.stream().anyMatch(arm -> arm.jar() == null))) {
			problems.add("jar is missing: give the path of the service's executable jar, relative to this file (or a jar in every arm)");
		}
		else if (this.jar != null && !Files.isRegularFile(this.jar)) {
			problems.add("jar " + this.jar + " does not exist: build it first, or fix the path (relative to this file)");
		}
		if (!this.port.matches("[a-zA-Z0-9_.\\-\\[\\]]+")) {
			problems.add("port must be the Spring property that sets the service's port, e.g. server.port, got '" + this.port + "'");
		}
		if (!this.readiness.startsWith("/")) {
			problems.add("readiness must be a path starting with /, e.g. /actuator/health, got '" + this.readiness + "'");
		}
		if (this.metrics != null && (this.metrics.path() == null || !this.metrics.path().startsWith("/"))) {
			problems.add("metrics.path must be the path of a Prometheus endpoint starting with /, e.g. /actuator/prometheus, got '"
					+ this.metrics.path() + "'");
		}
		if (this.requests.isEmpty()) {
			problems.add("requests must list at least one request, e.g. - {path: /orders/1}");
		}
		for (int i = 0; i < this.requests.size(); i++) {
			Request request = this.requests.get(i);
			String at = "requests[" + i + "]";
			if (request.path() == null || !request.path().startsWith("/")) {
				problems.add(at + ".path must start with /, e.g. /orders/1?expand=items, got '" + request.path() + "'");
			}
			if (!METHODS.contains(request.method())) {
				problems.add(at + ".method must be one of GET, POST, PUT, PATCH, DELETE or HEAD, got '" + request.method() + "'");
			}
			if (request.weight() < 1) {
				problems.add(at + ".weight must be a whole number of 1 or more (its share against the others'), got " + request.weight());
			}
			if (request.status() < 100 || request.status() > 599) {
				problems.add(at + ".status must be an HTTP status, e.g. 200, got " + request.status());
			}
			if (request.target() != null) {
				try {
					LatencyTarget.parse(request.target());
				}
				catch (IllegalArgumentException ex) {
					problems.add(at + ".target: " + ex.getMessage());
				}
			}
			if (request.feed() != null) {
				problems.addAll(request.feed().problems(at + ".feed", request.path(), request.body(), String.join("\n", request.headers().values())));
			}
			if (request.thinkMs() < 0 || request.thinkMs() > 60_000) {
				problems.add(at + ".thinkMs must be between 0 and 60000 (ms its user pauses after it), got " + request.thinkMs());
			}
		}
		if (this.search != null) {
			problems.addAll(this.search.problems());
			if (this.search.problems().isEmpty() && this.arms.size() > Axes.MAX_ARMS) {
				problems.add("arms crossed with search.axes make " + this.arms.size() + " arms, more than " + Axes.MAX_ARMS
						+ ": fewer arms or values (or search.sample)");
			}
		}
		if (this.arms.isEmpty() && (this.search == null || this.search.problems().isEmpty())) {
			problems.add("arms must list at least one arm, e.g. - {name: vt-on, properties: {spring.threads.virtual.enabled: true}}");
		}
		List<String> armNames = new ArrayList<>();
		for (int i = 0; i < this.arms.size(); i++) {
			ServiceArm arm = this.arms.get(i);
			String at = "arms[" + i + "]";
			if (arm.name() == null || !arm.name().matches("[a-z0-9][a-z0-9-]*")) {
				problems.add(at + ".name must be lower-case letters, digits and dashes, got '" + arm.name() + "'");
			}
			else if (armNames.contains(arm.name())) {
				problems.add(at + ".name '" + arm.name() + "' is used twice: each arm is a row, name each once");
			}
			armNames.add(arm.name());
			if (arm.jar() != null && !Files.isRegularFile(arm.jar())) {
				problems.add(at + ".jar " + arm.jar() + " does not exist: build it first, or fix the path (relative to this file)");
			}
			checkJvm(at + ".jvm", arm.jvm(), problems);
			checkProperties(at + ".properties", arm.properties(), problems);
		}
		checkJvm("jvm", this.jvm, problems);
		checkProperties("properties", this.properties, problems);
		if (this.warmupMaxSeconds != null && (this.warmupMaxSeconds < 1 || this.warmupMaxSeconds > 3600)) {
			problems.add("warmupMaxSeconds must be between 1 and 3600 (seconds of warm-up at most, while the JIT still compiles), got " + this.warmupMaxSeconds);
		}
		PostgresNeed pg = this.needs.postgres();
		if (pg != null) {
			if (!pg.database().matches("[a-z_][a-z0-9_]*")) {
				problems.add("needs.postgres.database must be lower-case letters, digits and underscores, got '" + pg.database() + "'");
			}
			if (pg.placement() != null && !DatabasePlacement.ALL.contains(pg.placement())) {
				problems.add("needs.postgres.placement must be one of " + String.join(", ", DatabasePlacement.ALL) + " (service: on the service's core; "
						+ "harness: beside the injector; another host: give url instead), got '" + pg.placement() + "'");
			}
			if (pg.placement() != null && pg.url() != null) {
				problems.add("needs.postgres.placement places a PostgreSQL the lab starts; with url the database runs elsewhere: give one of them");
			}
			if (pg.url() != null && !pg.url().startsWith("jdbc:postgresql://")) {
				problems.add("needs.postgres.url must be a JDBC URL, jdbc:postgresql://host:port/database, got '" + pg.url() + "'");
			}
			if (pg.init() != null && !Files.isRegularFile(pg.init())) {
				problems.add("needs.postgres.init " + pg.init() + " does not exist: give an SQL file relative to this file");
			}
		}
		Downstream downstream = this.needs.downstream();
		if (downstream != null && (downstream.property() == null || !downstream.property().matches("[a-zA-Z0-9_.\\-\\[\\]]+"))) {
			problems.add("needs.downstream.property must name the Spring property that takes the downstream's base URL, e.g. "
					+ "lab.downstream.base-url, got '" + downstream.property() + "'");
		}
		return problems;
	}

	private static void checkJvm(String at, List<String> flags, List<String> problems) {
		flags.stream().filter(flag -> !flag.startsWith("-"))
			.forEach(flag -> problems.add(at + ": JVM option '" + flag + "' must start with '-', e.g. -Xmx512m"));
	}

	private static void checkProperties(String at, Map<String, String> properties, List<String> problems) {
		properties.keySet().stream().filter(key -> key.startsWith("-") || key.contains("=") || key.isBlank())
			.forEach(key -> problems.add(at + ": '" + key + "' must be a Spring property name, e.g. spring.threads.virtual.enabled"));
	}

}
