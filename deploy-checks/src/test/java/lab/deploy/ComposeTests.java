package lab.deploy;

import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import lab.plan.Compose;
import lab.plan.Variant;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** docker-compose.yml, checked offline: there is no Docker engine here to run it. */
class ComposeTests {

	/** The database set's services (docs/database.md), in the Compose file's {@code db} profile. */
	static final List<String> DATABASE_SET = List.of("app-db-tomcat-loom", "app-db-tomcat-platform", "app-db-webflux-r2dbc", "app-db-webflux-loom");

	@Test
	void theComposeFileIsValidAgainstTheComposeSpecSchema() throws Exception {
		JsonSchema schema = schema();
		assertThat(schema.validate(Repo.compose("docker-compose.yml"))).isEmpty();
		// The schema does reject what is wrong: an unknown key and a value of the wrong type.
		ObjectNode broken = (ObjectNode) Repo.compose("docker-compose.yml");
		((ObjectNode) broken.path("services").path("app-webflux")).put("cpu_quota_typo", 1).put("restart", 5);
		assertThat(schema.validate(broken)).extracting(ValidationMessage::getMessage)
			.anyMatch(m -> m.contains("cpu_quota_typo")).anyMatch(m -> m.contains("restart"));
	}

	static JsonSchema schema() throws Exception {
		JsonSchema schema;
		try (InputStream in = ComposeTests.class.getResourceAsStream("/compose-spec.json")) {
			ObjectNode spec = (ObjectNode) Repo.json.readTree(in);
			// The schema names its parts with draft-04 "id" while declaring draft 2019-09, which has no such keyword.
			removeDraft4Ids(spec);
			schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V201909).getSchema(spec);
		}
		return schema;
	}

	/** Drops string "id" keywords from schema objects (not from "properties", where "id" would be a field name). */
	static void removeDraft4Ids(JsonNode node) {
		if (node instanceof ObjectNode object) {
			if (object.path("id").isTextual()) {
				object.remove("id");
			}
			object.properties().forEach(entry -> {
				if (entry.getKey().equals("properties")) {
					entry.getValue().forEach(ComposeTests::removeDraft4Ids);
				}
				else {
					removeDraft4Ids(entry.getValue());
				}
			});
		}
		else if (node.isArray()) {
			node.forEach(ComposeTests::removeDraft4Ids);
		}
	}

	@Test
	void everyVariantRunsWithTheLimitsOfAT2Micro() throws Exception {
		JsonNode services = Repo.compose("docker-compose.yml").path("services");
		for (String variant : Variant.names()) {
			JsonNode app = services.path(variant);
			assertThat(app.isMissingNode()).as(variant + " is in docker-compose.yml").isFalse();
			assertThat(app.path("cpus").asDouble()).as(variant + " cpus").isEqualTo(1.0);
			assertThat(app.path("mem_limit").asText()).as(variant + " memory").isEqualTo("1g");
			assertThat(app.path("memswap_limit").asText()).as(variant + " memory + swap").isEqualTo("1g");
			assertThat(app.path("ulimits").path("nofile").path("hard").asInt()).as(variant + " nofile").isGreaterThanOrEqualTo(20_000);
			assertThat(app.path("build").path("args").path("MODULE").asText()).isEqualTo(variant);
			assertThat(app.path("environment").path("LAB_DOWNSTREAM_BASE_URL").asText()).isEqualTo("http://downstream-delay-service:7000");
		}
		JsonNode downstream = services.path(Variant.DOWNSTREAM);
		assertThat(downstream.path("cpus").asDouble()).as("downstream like a t2.medium").isEqualTo(2.0);
		assertThat(downstream.path("mem_limit").asText()).isEqualTo("4g");
		assertThat(services.path("prometheus").isMissingNode()).isFalse();
		assertThat(services.path("grafana").isMissingNode()).isFalse();
		assertThat(services.path("gatling").path("profiles").toString()).contains("load");
	}

	/**
	 * {@code ./lab run --compose} reaches every service where the Compose file puts it: by name and container port from
	 * the stack's own {@code lab} service, by the published port's default from the host.
	 */
	@Test
	void theRunnersComposeModeReachesEveryServiceWhereTheComposeFilePutsIt() throws Exception {
		JsonNode services = Repo.compose("docker-compose.yml").path("services");
		JsonNode runner = services.path("lab");
		assertThat(runner.path("profiles").toString()).contains("lab");
		assertThat(runner.path("environment").path("LAB_COMPOSE_NETWORK").asText()).isNotEmpty();
		assertThat(runner.path("command").toString()).contains("run --compose");
		Compose inside = Compose.from(Map.of("LAB_COMPOSE_NETWORK", "1"));
		Compose host = Compose.from(Map.of());
		List<String> names = new ArrayList<>(Variant.names());
		names.add(Variant.DOWNSTREAM);
		for (String name : names) {
			JsonNode service = services.path(name);
			String port = service.path("environment").path("SERVER_PORT").asText();
			assertThat(inside.url(name)).as(name + " from the lab service").hasToString("http://" + name + ":" + port);
			// "${LAB_BIND_ADDRESS:-127.0.0.1}:${LAB_WEBFLUX_PORT:-8081}:8081", read with the variables' defaults: the host port's default.
			Matcher published = Pattern.compile("^127\\.0\\.0\\.1:(\\d+):" + port + "$").matcher(service.path("ports").get(0).asText());
			assertThat(published.find()).as(name + " ports " + service.path("ports")).isTrue();
			assertThat(host.url(name)).as(name + " from the host").hasToString("http://127.0.0.1:" + published.group(1));
			if (!name.equals(Variant.DOWNSTREAM)) {
				String management = service.path("environment").path("MANAGEMENT_SERVER_PORT").asText();
				assertThat(inside.managementUrl(name)).as(name + "'s health and metrics from the lab service").hasToString("http://" + name + ":" + management);
				Matcher managementPublished = Pattern.compile("^127\\.0\\.0\\.1:(\\d+):" + management + "$").matcher(service.path("ports").get(1).asText());
				assertThat(managementPublished.find()).as(name + " ports " + service.path("ports")).isTrue();
				assertThat(host.managementUrl(name)).as(name + "'s health and metrics from the host").hasToString("http://127.0.0.1:" + managementPublished.group(1));
			}
		}
	}

	/**
	 * Every published port of every service binds to 127.0.0.1 unless {@code LAB_BIND_ADDRESS} opens it: a laptop's
	 * local network reaches no service, management port, Prometheus or Grafana by default.
	 */
	@Test
	void everyPublishedPortIsOnLoopbackUnlessOpenedOnPurpose() throws Exception {
		int published = 0;
		for (JsonNode service : Repo.compose("docker-compose.yml").path("services")) {
			for (JsonNode port : service.path("ports")) {
				assertThat(port.asText()).as("a published port").startsWith("127.0.0.1:");
				published++;
			}
		}
		assertThat(published).as("the services, their management ports, Prometheus and Grafana").isEqualTo(2 * (Variant.ALL.size() + DATABASE_SET.size()) + 3);
		for (JsonNode service : Repo.compose("docker-compose.yml", Map.of("LAB_BIND_ADDRESS", "0.0.0.0")).path("services")) {
			for (JsonNode port : service.path("ports")) {
				assertThat(port.asText()).as("a port opened with LAB_BIND_ADDRESS=0.0.0.0").startsWith("0.0.0.0:");
			}
		}
	}

	@Test
	void everyBuildContextAndDockerfileExists() throws Exception {
		for (JsonNode service : Repo.compose("docker-compose.yml").path("services")) {
			JsonNode build = service.path("build");
			if (!build.isMissingNode()) {
				assertThat(Repo.root().resolve(build.path("context").asText())).isDirectory();
				assertThat(Repo.root().resolve(build.path("context").asText()).resolve(build.path("dockerfile").asText())).isRegularFile();
			}
			for (JsonNode volume : service.path("volumes")) {
				String source = volume.asText().split(":")[0];
				if (source.startsWith("./")) {
					assertThat(Files.exists(Repo.root().resolve(source))).as(source).isTrue();
				}
			}
		}
	}

	@Test
	void prometheusScrapesEveryServiceEachSecond() throws Exception {
		JsonNode config = Repo.yaml("prometheus/prometheus.yml");
		assertThat(config.path("global").path("scrape_interval").asText()).isEqualTo("1s");
		String targets = config.path("scrape_configs").toString();
		JsonNode services = Repo.compose("docker-compose.yml").path("services");
		String downstreamPort = services.path(Variant.DOWNSTREAM).path("environment").path("SERVER_PORT").asText();
		assertThat(targets).contains(Variant.DOWNSTREAM + ":" + downstreamPort);
		for (Variant variant : Variant.ALL) {
			// Each proxy's management port: a scrape does not queue behind the requests.
			assertThat(targets).as(variant.name()).contains(variant.name() + ":" + variant.managementPort());
			assertThat(services.path(variant.name()).path("environment").path("MANAGEMENT_SERVER_PORT").asInt()).as(variant.name())
				.isEqualTo(variant.managementPort());
		}
	}

	/** Each variant listens where the one list of variants says: its application.yml, and Compose. */
	@Test
	void everyVariantListensOnThePortTheListOfVariantsGives() throws Exception {
		JsonNode services = Repo.compose("docker-compose.yml").path("services");
		for (Variant variant : Variant.ALL) {
			JsonNode application = Repo.yaml(variant.name() + "/src/main/resources/application.yml");
			assertThat(application.path("server").path("port").asInt()).as(variant.name()).isEqualTo(variant.port());
			assertThat(services.path(variant.name()).path("environment").path("SERVER_PORT").asInt()).as(variant.name())
				.isEqualTo(variant.port());
		}
	}

	/**
	 * The database set on demand ({@code --profile db}): PostgreSQL from the image built here, sized like the t3.medium
	 * Terraform gives it and reached only on the stack's network; each service limited like a t2.micro, started once
	 * PostgreSQL is healthy, pointed at it by name, listening where its application.yml and Terraform's set say.
	 */
	@Test
	void theDatabaseSetRunsOnDemandBesideItsOwnPostgres() throws Exception {
		JsonNode services = Repo.compose("docker-compose.yml").path("services");
		JsonNode postgres = services.path("postgres");
		assertThat(postgres.path("profiles").toString()).contains("\"db\"");
		assertThat(postgres.path("build").path("dockerfile").asText()).isEqualTo("docker/postgres.Dockerfile");
		assertThat(postgres.path("ports").size()).as("PostgreSQL's published ports").isZero();
		assertThat(postgres.path("cpus").asDouble()).as("PostgreSQL like Terraform's t3.medium").isEqualTo(2.0);
		assertThat(postgres.path("mem_limit").asText()).isEqualTo("4g");
		String dockerfile = Files.readString(Repo.root().resolve("docker/postgres.Dockerfile"));
		assertThat(dockerfile).contains("COPY db-common/src/main/resources/lab-db/account.sql").contains("HEALTHCHECK");
		String terraform = Files.readString(Repo.root().resolve("terraform/main.tf"));
		for (String name : DATABASE_SET) {
			JsonNode app = services.path(name);
			assertThat(app.path("profiles").toString()).as(name).contains("\"db\"");
			assertThat(app.path("cpus").asDouble()).as(name + " cpus").isEqualTo(1.0);
			assertThat(app.path("mem_limit").asText()).as(name + " memory").isEqualTo("1g");
			assertThat(app.path("memswap_limit").asText()).as(name + " memory + swap").isEqualTo("1g");
			assertThat(app.path("build").path("args").path("MODULE").asText()).isEqualTo(name);
			assertThat(app.path("environment").path("LAB_DB_HOST").asText()).isEqualTo("postgres");
			assertThat(app.path("depends_on").path("postgres").path("condition").asText()).isEqualTo("service_healthy");
			int port = Repo.yaml(name + "/src/main/resources/application.yml").path("server").path("port").asInt();
			assertThat(app.path("environment").path("SERVER_PORT").asInt()).as(name).isEqualTo(port);
			assertThat(app.path("environment").path("MANAGEMENT_SERVER_PORT").asInt()).as(name).isEqualTo(port + 1000);
			assertThat(app.path("ports").get(0).asText()).as(name).isEqualTo("127.0.0.1:" + port + ":" + port);
			assertThat(app.path("ports").get(1).asText()).as(name).isEqualTo("127.0.0.1:" + (port + 1000) + ":" + (port + 1000));
			assertThat(terraform).as("Terraform's set puts " + name + " on the same port").containsPattern("\"" + name + "\"\\s*=\\s*" + port + "\\b");
		}
	}

}
