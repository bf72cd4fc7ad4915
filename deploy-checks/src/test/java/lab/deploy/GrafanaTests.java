package lab.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import lab.common.Contract;
import lab.common.ServiceProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every metric a dashboard queries is exposed by a real running service, compared against live scrapes. */
class GrafanaTests {

	/** Names in PromQL that are functions, keywords or label names, not metrics. */
	static final Set<String> PROMQL = Set.of("sum", "by", "rate", "histogram_quantile", "le", "application", "kind", "uri",
			"area", "without", "max", "min", "avg", "irate", "increase");

	@Test
	void everyQueriedMetricExistsInALiveScrape() throws Exception {
		Set<String> queried = new TreeSet<>();
		List<Path> dashboards;
		try (Stream<Path> files = Files.list(Repo.root().resolve("grafana/dashboards"))) {
			dashboards = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
		}
		assertThat(dashboards).extracting(f -> f.getFileName().toString())
			.contains("throughput-latency.json", "cpu-gc.json", "memory.json", "threads.json", "connections.json");
		for (Path dashboard : dashboards) {
			JsonNode root = Repo.json.readTree(dashboard.toFile());
			assertThat(root.path("uid").asText()).isNotEmpty();
			for (JsonNode panel : root.path("panels")) {
				assertThat(panel.path("datasource").path("uid").asText()).isEqualTo("prometheus");
				for (JsonNode target : panel.path("targets")) {
					queried.addAll(metricNames(target.path("expr").asText()));
				}
			}
		}
		Set<String> exposed = liveMetricNames();
		assertThat(queried).isNotEmpty();
		assertThat(exposed).containsAll(queried);
	}

	static Set<String> metricNames(String expr) {
		Set<String> names = new HashSet<>();
		String withoutLabels = expr.replaceAll("\\{[^}]*}", "{}").replaceAll("\\[[^]]*]", "[]").replaceAll("\"[^\"]*\"", "");
		Matcher matcher = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*").matcher(withoutLabels);
		while (matcher.find()) {
			String name = matcher.group();
			if (!PROMQL.contains(name) && name.contains("_")) {
				names.add(name);
			}
		}
		return names;
	}

	/** Downstream, a Tomcat and a Netty variant, after a request and a bad request through each. */
	static Set<String> liveMetricNames() throws Exception {
		Set<String> names = new HashSet<>();
		try (ServiceProcess downstream = ServiceProcess.start("downstream-delay-service");
				ServiceProcess tomcat = ServiceProcess.start("app-tomcat-loom", "--lab.downstream.base-url=" + downstream.url());
				ServiceProcess netty = ServiceProcess.start("app-webflux", "--lab.downstream.base-url=" + downstream.url())) {
			for (ServiceProcess service : List.of(tomcat, netty)) {
				Contract.get(service.url() + "/address/10");
				Contract.get(service.url() + "/address/bad");
			}
			for (ServiceProcess service : List.of(downstream, tomcat, netty)) {
				for (String line : Contract.get(service.url() + "/actuator/prometheus").body().split("\n")) {
					if (!line.isEmpty() && line.charAt(0) != '#') {
						names.add(line.split("[{ ]")[0]);
					}
				}
			}
		}
		return names;
	}

}
