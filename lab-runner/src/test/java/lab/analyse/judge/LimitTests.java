package lab.analyse.judge;

import lab.analyse.TestRows;
import lab.analyse.measure.Headroom;
import lab.analyse.measure.Metric;
import lab.layout.Level;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What bound a level, one case each, from synthetic figures. */
class LimitTests {

	private static TestRows row() {
		return TestRows.row("orders-vt-on", new Level.Closed(400));
	}

	@Test
	void theHeapWhenTheCollectorIsBusy() {
		assertThat(Limit.of(row().set(Metric.GC_PERCENT, 31, Figures.SERVICE_CPU_PERCENT, 97).build())).isEqualTo("the heap (GC 31% of the time, core 97% busy)");
	}

	@Test
	void aConnectionPoolFromItsMetersWithTheCoreWhenBothBound() {
		assertThat(Limit.of(row().set(Metric.PEAK_POOL_ACTIVE, 10, Metric.POOL_MAX, 10, Metric.PEAK_POOL_PENDING, 406, Figures.SERVICE_CPU_PERCENT, 60).build()))
			.isEqualTo("a connection pool (10 of 10 in use, 406 waiting)");
		assertThat(Limit.of(row().set(Metric.PEAK_POOL_ACTIVE, 10, Metric.POOL_MAX, 10, Metric.PEAK_POOL_PENDING, 406, Figures.SERVICE_CPU_PERCENT, 96).build()))
			.isEqualTo("a connection pool (10 of 10 in use, 406 waiting) and the core (96% busy)");
	}

	@Test
	void aConnectionPoolFromTheThreadDumpAloneWithoutMeters() {
		assertThat(Limit.of(row().set(Figures.POOL_WAITING_IN_DUMP, 396, Figures.POOL_WAITING_AT_END, 396, Figures.SERVICE_CPU_PERCENT, 70).build()))
			.isEqualTo("a connection pool (396 threads waiting for a connection at the window's end)");
		// More threads in the dump than users: the count stated is the bound the users set, the dump's own beside it.
		assertThat(Limit.of(row().set(Figures.POOL_WAITING_IN_DUMP, 412, Figures.POOL_WAITING_AT_END, 400, Figures.THREAD_DUMP_SPAN_MS, 211,
				Figures.SERVICE_CPU_PERCENT, 70).build()))
			.isEqualTo("a connection pool (at most 400 requests waiting for a connection at the window's end, one per user; the dump counted 412 "
					+ "threads over its 211 ms as requests ended and began)");
	}

	@Test
	void aRecordedDumpThatCountsMoreThreadsThanUsersIsBoundedByThem(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
		// Three threads in HikariPool.getConnection, dumped thread by thread over 150 ms, in a level of 2 closed users: a request
		// that ended during the dump and its user's next one are both in it.
		java.nio.file.Files.writeString(dir.resolve(lab.layout.LevelDir.THREADS_AT_END), """
				{"threadDump": {"processId": 1, "time": "2026-11-28T20:00:00.000Z", "threadContainers": [
				  {"container": "java.util.concurrent.ThreadPerTaskExecutor@1", "threads": [
				    {"tid": "40", "time": "2026-11-28T20:00:00.010Z", "stack": ["com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:167)"]},
				    {"tid": "41", "time": "2026-11-28T20:00:00.080Z", "stack": ["com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:167)"]},
				    {"tid": "42", "time": "2026-11-28T20:00:00.160Z", "stack": ["com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:167)"]}]}]}}
				""");
		double counted = lab.analyse.evidence.DumpCounts.atEnd(dir).poolWaiting();
		assertThat(counted).isEqualTo(3);
		double bounded = Figures.bounded(counted, new Level.Closed(2));
		assertThat(bounded).as("never more waiting requests than users").isEqualTo(2);
		assertThat(Figures.bounded(counted, new Level.Closed(25))).isEqualTo(3);
		assertThat(Limit.of(TestRows.row("orders-vt-on", new Level.Closed(2)).set(Figures.POOL_WAITING_IN_DUMP, counted, Figures.POOL_WAITING_AT_END,
				bounded, Figures.SERVICE_CPU_PERCENT, 40).build()))
			.startsWith("a connection pool (at most 2 requests waiting for a connection at the window's end, one per user; the dump counted 3 threads");
	}

	@Test
	void thePoolsOwnMetersDecideWhereTheyExistNotTheDump() {
		// HikariCP says a connection was always free: a few threads caught in getConnection by the dump do not name the pool.
		assertThat(Limit.of(row().set(Metric.PEAK_POOL_ACTIVE, 9, Metric.POOL_MAX, 10, Metric.PEAK_POOL_PENDING, 0, Figures.POOL_WAITING_IN_DUMP, 3,
				Figures.POOL_WAITING_AT_END, 3, Figures.SERVICE_CPU_PERCENT, 60).build())).isEqualTo("none found (core 60% busy)");
	}

	@Test
	void theDatabaseWhenTheCoreItRunsOnIsFullNamedBeforeThePoolInFrontOfIt() {
		// Placement harness: PostgreSQL 64% of the core it shares with the injector, that core 98% busy; the pool full with 3 waiting.
		assertThat(Limit.of(row().headroom(new Headroom(0.1, Double.NaN, 0.6, 0.2, 1, 4000, "harness")).set(Figures.PG_CPU_PERCENT, 64,
				Figures.PG_CORES_BUSY_PERCENT, 98, Figures.PG_ACTIVE_BACKENDS, 6.5, Metric.PEAK_POOL_ACTIVE, 10, Metric.POOL_MAX, 10,
				Metric.PEAK_POOL_PENDING, 3, Figures.SERVICE_CPU_PERCENT, 55).build()))
			.isEqualTo("the database (its core 98% busy, PostgreSQL 64% of it, beside the injector), the pool full in front of it");
		// Placement service: the core the two share is full.
		assertThat(Limit.of(row().headroom(new Headroom(0.1, Double.NaN, 0.6, 0.2, 1, 4000, "service")).set(Figures.PG_CPU_PERCENT, 52,
				Figures.PG_CORES_BUSY_PERCENT, 97, Figures.PG_ACTIVE_BACKENDS, 4, Figures.SERVICE_CPU_PERCENT, 44).build()))
			.isEqualTo("the database and the service on the core they share (97% busy: PostgreSQL 52%, the service 44%)");
		// The shared core full with the database's share small: the core, both figures named.
		assertThat(Limit.of(row().headroom(new Headroom(0.1, Double.NaN, 0.1, 0.2, 1, 4000, "service")).set(Figures.PG_CPU_PERCENT, 12,
				Figures.PG_CORES_BUSY_PERCENT, 96, Figures.PG_ACTIVE_BACKENDS, 1, Figures.SERVICE_CPU_PERCENT, 83).build()))
			.isEqualTo("the core (96% busy, the service 83% and PostgreSQL 12%)");
	}

	@Test
	void theDownstreamStandInWhenItsLatenessIsAShareOfTheP99() {
		assertThat(Limit.of(row().set(Figures.DOWNSTREAM_P99_LATE_MS, 80, Figures.P99_OK_MS, 320, Figures.SERVICE_CPU_PERCENT, 40).build()))
			.isEqualTo("the downstream stand-in (its p99 80 ms late beyond its delay, probed end to end: 25% of the service's p99)");
		// Late, but a small part of a p99 of seconds: not what bound the level.
		assertThat(Limit.of(row().set(Figures.DOWNSTREAM_P99_LATE_MS, 80, Figures.P99_OK_MS, 3_000, Figures.SERVICE_CPU_PERCENT, 96).build()))
			.isEqualTo("the core (96% busy)");
		// On time within the rule's 50 ms: not named.
		assertThat(Limit.of(row().set(Figures.DOWNSTREAM_P99_LATE_MS, 12, Figures.P99_OK_MS, 40, Figures.SERVICE_CPU_PERCENT, 40).build()))
			.isEqualTo("none found (core 40% busy)");
	}

	@Test
	void theCoreWhenBusyOrSaturatedInItsSlices() {
		assertThat(Limit.of(row().set(Figures.SERVICE_CPU_PERCENT, 93).build())).isEqualTo("the core (93% busy)");
		assertThat(Limit.of(row().set(Figures.SERVICE_CPU_PERCENT, 80, Figures.SATURATED_SLICES_PERCENT, 62).build())).isEqualTo("the core (80% busy)");
	}

	@Test
	void theThreadPoolAtItsSizeWithTheCoreIdle() {
		assertThat(Limit.of(row().set(Metric.PEAK_NATIVE_THREADS, 221, Figures.SERVICE_CPU_PERCENT, 21).build()))
			.isEqualTo("the thread pool (221 threads, core 21% busy)");
	}

	@Test
	void aCollectorBelowAQuarterOfTheTimeIsNotTheLimit() {
		// WebFlux + virtual threads at 1,413 users (a capacity run here): GC 18%, core 48%, the target missed: not the heap.
		assertThat(Limit.of(row().set(Metric.GC_PERCENT, 18, Figures.SERVICE_CPU_PERCENT, 48).build())).isEqualTo("none found (core 48% busy)");
	}

	@Test
	void noneFoundIsAFindingAndNoFiguresSayNothing() {
		assertThat(Limit.of(row().set(Figures.SERVICE_CPU_PERCENT, 40, Metric.PEAK_NATIVE_THREADS, 30, Metric.GC_PERCENT, 1).build()))
			.isEqualTo("none found (core 40% busy)");
		assertThat(Limit.of(row().build())).isEmpty();
	}

	@Test
	void theDatabaseWhenItsCpuOrItsBackendsWaitingOnLocksOrIoSaturateAndThePoolInFrontOfIt() {
		assertThat(Limit.of(row().set(Figures.PG_ACTIVE_BACKENDS, 9.6, Figures.PG_CPU_PERCENT, 93, Figures.SERVICE_CPU_PERCENT, 40).build()))
			.isEqualTo("the database (PostgreSQL 93% of a core, 9.6 backends active)");
		assertThat(Limit.of(row().set(Figures.PG_ACTIVE_BACKENDS, 10, Figures.PG_LOCK_WAITING_BACKENDS, 8.5, Figures.PG_CPU_PERCENT, 20,
				Figures.POOL_WAITING_AT_END, 390, Figures.SERVICE_CPU_PERCENT, 30).build()))
			.isEqualTo("the database (8.5 of 10.0 active backends waiting on locks), the pool full in front of it");
		assertThat(Limit.of(row().set(Figures.PG_ACTIVE_BACKENDS, 4, Figures.PG_IO_WAITING_BACKENDS, 3, Figures.PG_CPU_PERCENT, 20,
				Figures.SERVICE_CPU_PERCENT, 30).build()))
			.isEqualTo("the database (3.0 of 4.0 active backends waiting on I/O)");
		// Backends sleeping in a query (pg_sleep: Timeout) with a full pool: the pool, not the database.
		assertThat(Limit.of(row().set(Figures.PG_ACTIVE_BACKENDS, 10, Figures.PG_LOCK_WAITING_BACKENDS, 0, Figures.PG_IO_WAITING_BACKENDS, 0,
				Figures.PG_CPU_PERCENT, 12, Figures.POOL_WAITING_AT_END, 390, Figures.SERVICE_CPU_PERCENT, 30).build()))
			.isEqualTo("a connection pool (390 threads waiting for a connection at the window's end)");
	}

	@Test
	void aLockWhenThreadsWereBlockedEnteringMonitorsAndNotBelowOne() {
		assertThat(Limit.of(row().set(Figures.MONITOR_BLOCKED_THREADS, 37.5, Figures.SERVICE_CPU_PERCENT, 40).build()))
			.isEqualTo("a lock (37.5 threads blocked entering monitors on average, JFR)");
		assertThat(Limit.of(row().set(Figures.MONITOR_BLOCKED_THREADS, 0.3, Figures.SERVICE_CPU_PERCENT, 40).build()))
			.isEqualTo("none found (core 40% busy)");
	}

}
