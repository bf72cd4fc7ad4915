package lab.analyse.judge;

import java.util.Locale;

import lab.analyse.evidence.PoolEvidence;
import lab.analyse.measure.Metric;

/**
 * What bound a level, read from the service's outside (USE: the first resource that saturated): the heap (the collector
 * busy), a lock in the service (threads blocked entering monitors, with --jfr), the lab's downstream stand-in (late beyond
 * its delay, probed end to end), the database the lab started (its CPU, or
 * its active backends waiting on locks or I/O), a connection pool (every connection in use and threads waiting, from the pool's meters or from the threads
 * waiting in a pool's frames in the thread dump at the window's end; with the core too when it was saturated), the core
 * (busy in 85% of the window or saturated in half its 100 ms slices), the thread pool (as many threads as Tomcat's pool
 * and the core not busy), or "none found", itself a finding. Written per level as {@code limit} in summary.json, a
 * report column and the console's level line. A capacity search names each variant's at its knee,
 * so a reader knows which ratios move with a faster core and which with memory or pool sizes.
 */
public final class Limit {

	/**
	 * The collector's share of wall time from which the heap is named: a quarter of the time collecting. Serial GC on a
	 * 256 MiB heap takes 10-20% at any load near a knee here (WebFlux + virtual threads 18% with its core 48% busy, where
	 * closed users' waves were the cause), so a lower bound would name the heap everywhere.
	 */
	static final double GC_PERCENT = 25;

	/** The service's share of its core from which the core is named. */
	static final double CORE_PERCENT = 85;

	/** The share of the window's 100 ms slices with the core saturated from which the core is named. */
	static final double SATURATED_PERCENT = 50;

	/** A platform-thread pool at its size (Tomcat's default 200) with the core below {@link #CORE_PERCENT}. */
	static final double THREADS = 200;

	private Limit() {
	}

	/**
	 * The database the lab started, when it saturated: its CPU at {@link #CORE_PERCENT} of a core, or half its active
	 * backends or more waiting on locks or on I/O; "" otherwise (or without one).
	 */
	static String database(LevelResult level) {
		double active = level.value(Figures.PG_ACTIVE_BACKENDS);
		double cpu = level.value(Figures.PG_CPU_PERCENT);
		double locks = level.value(Figures.PG_LOCK_WAITING_BACKENDS);
		double io = level.value(Figures.PG_IO_WAITING_BACKENDS);
		double coresBusy = level.value(Figures.PG_CORES_BUSY_PERCENT);
		if (coresBusy >= CORE_PERCENT && cpu >= DATABASE_CORE_SHARE && level.headroom().databaseOnServiceCore()) {
			// The core it shares with the service was full and it held a good share of it: both named, with their shares.
			return String.format(Locale.ROOT, "the database and the service on the core they share (%.0f%% busy: PostgreSQL %.0f%%, the service %.0f%%)",
					coresBusy, cpu, level.value(Figures.SERVICE_CPU_PERCENT));
		}
		if (cpu >= CORE_PERCENT) {
			return String.format(Locale.ROOT, "the database (PostgreSQL %.0f%% of a core, %.1f backends active)", cpu, active);
		}
		if (coresBusy >= CORE_PERCENT && cpu >= DATABASE_CORE_SHARE) {
			// Its core was full and it held a good share of it: what it shares the core with is named beside it.
			return String.format(Locale.ROOT, "the database (its core %.0f%% busy, PostgreSQL %.0f%% of it%s)", coresBusy, cpu,
					level.headroom().databaseOnHarness() ? ", beside the injector" : "");
		}
		if (active >= 1 && locks >= DATABASE_WAITING * active) {
			return String.format(Locale.ROOT, "the database (%.1f of %.1f active backends waiting on locks)", locks, active);
		}
		if (active >= 1 && io >= DATABASE_WAITING * active) {
			return String.format(Locale.ROOT, "the database (%.1f of %.1f active backends waiting on I/O)", io, active);
		}
		return "";
	}

	/**
	 * The lab's downstream stand-in, when it answered late enough to bound the level: its p99 lateness beyond its delay
	 * (the runner's probe, end to end) at least {@link Rule#DOWNSTREAM_LATE}'s default and at least
	 * {@link Rule#HARNESS_EFFECT}'s share of the service's p99; "" otherwise (or without a probe). Such a level is INVALID
	 * too when the lateness could have moved its figures ({@link DownstreamLateness}): the harness, not the service.
	 */
	static String downstream(LevelResult level) {
		double late = level.value(Figures.DOWNSTREAM_P99_LATE_MS);
		double p99 = level.value(Figures.P99_OK_MS);
		if (!(late >= Thresholds.DEFAULT.get(Rule.DOWNSTREAM_LATE)) || !(p99 > 0) || 100 * late / p99 < Thresholds.DEFAULT.get(Rule.HARNESS_EFFECT)) {
			return "";
		}
		return String.format(Locale.ROOT, "the downstream stand-in (its p99 %.0f ms late beyond its delay, probed end to end: %.0f%% of the service's p99)",
				late, 100 * late / p99);
	}

	/** Threads blocked entering monitors, on average, from which a lock is named (--jfr). */
	static final double LOCK_BLOCKED_THREADS = 1;

	/**
	 * The share of one core the database must hold for a full core it runs on to name it: below it, what it shares the
	 * core with filled the core, not the database.
	 */
	static final double DATABASE_CORE_SHARE = 25;

	/** The share of the active backends waiting on locks (or on I/O) from which the database is named. */
	static final double DATABASE_WAITING = 0.5;

	/**
	 * The requests the thread dump at the window's end found waiting for a connection, as a count that can be true: the
	 * dump is taken thread by thread (not a snapshot), so at hundreds of requests a second a request that ended during it
	 * and its user's next one are both in it, and it can count more threads than there are users. Closed users bound
	 * the requests in flight: a count above them is stated as that bound, with the dump's own count beside it.
	 */
	static String waitingInDump(LevelResult level) {
		double counted = level.value(Figures.POOL_WAITING_IN_DUMP);
		double bounded = level.value(Figures.POOL_WAITING_AT_END);
		if (!(counted > bounded)) {
			return String.format(Locale.ROOT, "%.0f threads waiting for a connection at the window's end", bounded);
		}
		double span = level.value(Figures.THREAD_DUMP_SPAN_MS);
		return String.format(Locale.ROOT, "at most %.0f requests waiting for a connection at the window's end, one per user; the dump counted %.0f "
				+ "threads%s as requests ended and began", bounded, counted, Double.isFinite(span) ? String.format(Locale.ROOT, " over its %.0f ms", span) : "");
	}

	/** "the core (93% busy)", "the heap (GC 31% of the time)", "a connection pool (10 of 10 in use, 406 waiting)", ...; "" without figures. */
	public static String of(LevelResult level) {
		double gc = level.value(Figures.of(Metric.GC_PERCENT));
		double cpu = level.value(Figures.SERVICE_CPU_PERCENT);
		double pending = level.value(Figures.of(Metric.PEAK_POOL_PENDING));
		double active = level.value(Figures.of(Metric.PEAK_POOL_ACTIVE));
		double poolMax = level.value(Figures.of(Metric.POOL_MAX));
		double threads = level.value(Figures.of(Metric.PEAK_NATIVE_THREADS));
		double waitingAtEnd = level.value(Figures.POOL_WAITING_AT_END);
		double saturated = level.value(Figures.SATURATED_SLICES_PERCENT);
		if (gc >= GC_PERCENT) {
			// With Serial GC on one core the collector and the service share it: both named, the heap first (a larger one
			// collects less often), the core's figure beside it.
			return String.format(Locale.ROOT, "the heap (GC %.0f%% of the time%s)", gc, Double.isFinite(cpu) ? String.format(Locale.ROOT, ", core %.0f%% busy", cpu) : "");
		}
		// A database on the service's core shares it: the core is full when the two together fill it.
		double shared = level.headroom().databaseOnServiceCore() ? level.value(Figures.PG_CORES_BUSY_PERCENT) : Double.NaN;
		boolean coreSaturated = cpu >= CORE_PERCENT || saturated >= SATURATED_PERCENT || shared >= CORE_PERCENT;
		String coreFigure = Double.isFinite(shared)
				? String.format(Locale.ROOT, "%.0f%% busy, the service %.0f%% and PostgreSQL %.0f%%", shared, cpu, level.value(Figures.PG_CPU_PERCENT))
				: String.format(Locale.ROOT, "%.0f%% busy", cpu);
		String core = coreSaturated ? " and the core (" + coreFigure + ")" : "";
		double blocked = level.value(Figures.MONITOR_BLOCKED_THREADS);
		if (blocked >= LOCK_BLOCKED_THREADS) {
			// At least one thread blocked on a monitor at any time on average: requests queue on a lock in the service.
			return String.format(Locale.ROOT, "a lock (%.1f threads blocked entering monitors on average, JFR)", blocked) + core;
		}
		String downstream = downstream(level);
		if (!downstream.isEmpty()) {
			return downstream + core;
		}
		String database = database(level);
		// The pool's own meters where the service exposes them (HikariCP's pending count); the thread dump only without them.
		boolean metered = poolMax > 0;
		boolean poolFull = metered ? PoolEvidence.limited(active, poolMax, pending) : waitingAtEnd >= 1;
		if (!database.isEmpty()) {
			// Behind the pool: a full pool in front of a saturated database waits on the database.
			return database + (poolFull ? ", the pool full in front of it" : "") + (database.contains("on the core they share") ? "" : core);
		}
		if (metered && poolFull) {
			return String.format(Locale.ROOT, "a connection pool (%.0f of %.0f in use, %.0f waiting)%s", active, poolMax, pending, core);
		}
		if (poolFull) {
			return String.format(Locale.ROOT, "a connection pool (%s)%s", waitingInDump(level), core);
		}
		if (coreSaturated) {
			return "the core (" + coreFigure + ")";
		}
		if (threads >= THREADS) {
			return String.format(Locale.ROOT, "the thread pool (%.0f threads, core %.0f%% busy)", threads, cpu);
		}
		return Double.isFinite(cpu) ? String.format(Locale.ROOT, "none found (core %.0f%% busy)", cpu) : "";
	}

}
