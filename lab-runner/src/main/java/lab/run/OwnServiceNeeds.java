package lab.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.LevelJson;
import lab.launch.Postgres;
import lab.launch.ServiceFailure;
import lab.layout.RequestMix;
import lab.layout.RunDir;
import lab.plan.DatabasePlacement;
import lab.plan.JarLibraries;
import lab.plan.OwnService;
import lab.plan.Pinning;
import lab.plan.PlanException;
import lab.plan.RunPlan;
import tools.jackson.databind.json.JsonMapper;

/** A service of the user's own, before its arms start: its entry in the manifest, and what it needs (its PostgreSQL). */
final class OwnServiceNeeds implements AutoCloseable {

	private static final JsonMapper json = LevelJson.json;

	private final RunPlan plan;

	private final PrintStream out;

	private final Pinning cpus;

	/** The PostgreSQL this run started for the service, or null. */
	private Postgres postgres;

	/** The PostgreSQL this run started, null when it started none (or not yet). */
	Postgres postgres() {
		return this.postgres;
	}

	OwnServiceNeeds(RunPlan plan, PrintStream out, Pinning cpus) {
		this.plan = plan;
		this.out = out;
		this.cpus = cpus;
	}

	/**
	 * The service of the user's own in the manifest ({@code ownService}): its file as read, its jar's hash and libraries
	 * (the driver, pool, server, Boot and Spring named apart); and its requests as the simulation reads them
	 * ({@link lab.layout.RunDir#REQUEST_MIX}).
	 */
	void record(tools.jackson.databind.node.ObjectNode manifest) throws IOException {
		var own = this.plan.own();
		List<RequestMix.Request> mix = new java.util.ArrayList<>();
		for (int i = 0; i < own.requests().size(); i++) {
			var request = own.requests().get(i);
			if (request.feed() != null) {
				// The feed's values once, beside the mix: what the simulation reads, and what the run sent from.
				RequestMix.writeFeed(request.feed().records(), this.plan.out().resolve(RunDir.feed(i)));
			}
			mix.add(request.toMix(RunDir.feed(i)));
		}
		RequestMix.write(mix, this.plan.out().resolve(RunDir.REQUEST_MIX));
		// The driver is the one the datasource URL names: the lab's own PostgreSQL, the file's database, or the service's property.
		var pg = own.needs().postgres();
		String url = (pg == null) ? own.properties().get("spring.datasource.url") : pg.startedHere() ? "jdbc:postgresql:" : pg.url();
		Path jar = (own.jar() != null) ? own.jar() : own.jar(own.arms().get(0));
		var facts = JarLibraries.read(jar, url);
		tools.jackson.databind.node.ObjectNode node = manifest.putObject("ownService");
		node.set("file", json.valueToTree(own));
		node.put("jarSha256", facts.sha256());
		node.set("libraries", json.valueToTree(facts.roles()));
		node.set("allLibraries", json.valueToTree(facts.libraries().stream().map(Object::toString).toList()));
		node.set("driversPresent", json.valueToTree(facts.driversPresent()));
		List<String> others = facts.driversPresent().stream().filter(d -> !d.equals(facts.roles().get("driver"))).toList();
		this.out.println("lab: your service " + own.name() + ": " + jar.getFileName() + " (sha256 " + facts.sha256().substring(0, 12) + "), "
				+ (facts.roles().isEmpty() ? "no Spring Boot libraries found in BOOT-INF/lib" : String.join(", ", facts.roles().values()))
				+ (others.isEmpty() ? "" : "; also in the jar, not used: " + String.join(", ", others)));
		// Arms of jars of their own (services compared in one search): each jar's digest and libraries beside the file's.
		for (OwnService.ServiceArm arm : own.arms()) {
			if (arm.jar() != null && !arm.jar().equals(jar)) {
				var armFacts = JarLibraries.read(arm.jar(), url);
				tools.jackson.databind.node.ObjectNode one = node.withObject("armJars").putObject(own.label(arm));
				one.put("jar", arm.jar().toString()).put("jarSha256", armFacts.sha256()).set("libraries", json.valueToTree(armFacts.roles()));
				this.out.println("lab: arm " + own.label(arm) + ": " + arm.jar().getFileName() + " (sha256 " + armFacts.sha256().substring(0, 12) + "), "
						+ String.join(", ", armFacts.roles().values()));
			}
		}
	}

	/**
	 * What a service of the user's own needs before it starts: a PostgreSQL started here where its placement puts it (its
	 * log in {@code postgres/postgres.log}), or the URL of one already running; its properties go to every arm.
	 */
	java.util.Map<String, String> start() throws IOException, InterruptedException {
		var pg = (this.plan.own() != null) ? this.plan.own().needs().postgres() : null;
		if (pg == null) {
			return java.util.Map.of();
		}
		if (!pg.startedHere()) {
			this.out.println("lab: the service's PostgreSQL is already running at " + pg.url());
			return Postgres.properties(pg.url(), pg.username(), pg.password());
		}
		try {
			this.postgres = Postgres.start(pg, DatabasePlacement.taskset(pg.placed(), this.cpus), this.plan.out().resolve(RunDir.POSTGRES).resolve(RunDir.POSTGRES_LOG));
		}
		catch (ServiceFailure ex) {
			// Nothing was measured: one line and exit code 2, as for any other thing the run needs and lacks.
			throw new PlanException("the service's PostgreSQL did not start: " + ex.getMessage());
		}
		this.out.println("lab: PostgreSQL up at " + this.postgres.jdbcUrl() + " (pid " + this.postgres.pid() + ", data in " + this.postgres.data()
				+ ", removed after the run), " + DatabasePlacement.describe(pg.placed(), this.cpus));
		return this.postgres.properties();
	}

	/** Stops the PostgreSQL it started: after the services, as a smart shutdown waits for their connections to close. */
	@Override
	public void close() {
		if (this.postgres != null) {
			this.postgres.close();
		}
	}

}
