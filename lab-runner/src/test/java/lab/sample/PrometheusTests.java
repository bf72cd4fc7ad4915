package lab.sample;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pools' meters picked out of a scrape: HikariCP's and r2dbc-pool's under the same series, every pool summed. */
class PrometheusTests {

	@Test
	void hikariAndR2dbcPoolsAreReadUnderTheSameSeries() {
		String r2dbc = """
				# HELP r2dbc_pool_max_allocated_connections Maximum size of allocated connections that this pool allows.
				# TYPE r2dbc_pool_max_allocated_connections gauge
				r2dbc_pool_max_allocated_connections{application="app-db-webflux-r2dbc",name="connectionFactory"} 10.0
				r2dbc_pool_acquired_connections{application="app-db-webflux-r2dbc",name="connectionFactory"} 7.0
				r2dbc_pool_pending_connections{application="app-db-webflux-r2dbc",name="connectionFactory"} 3.0
				r2dbc_pool_idle_connections{application="app-db-webflux-r2dbc",name="connectionFactory"} 3.0
				jvm_threads_live_threads{application="app-db-webflux-r2dbc"} 25.0
				""";
		assertThat(Prometheus.selectPools(r2dbc)).isEqualTo(Map.of("pool_max", 10.0, "pool_active", 7.0, "pool_pending", 3.0));
		String both = r2dbc + """
				hikaricp_connections_max{application="app-db-webflux-r2dbc",pool="HikariPool-1"} 5.0
				hikaricp_connections_active{application="app-db-webflux-r2dbc",pool="HikariPool-1"} 5.0
				hikaricp_connections_pending{application="app-db-webflux-r2dbc",pool="HikariPool-1"} 40.0
				hikaricp_connections_timeout_total{application="app-db-webflux-r2dbc",pool="HikariPool-1"} 2.0
				""";
		assertThat(Prometheus.selectPools(both)).containsEntry("pool_max", 15.0).containsEntry("pool_active", 12.0).containsEntry("pool_pending", 43.0)
			.containsEntry("pool_timeouts", 2.0);
	}

}
