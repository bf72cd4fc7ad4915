package lab.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ObjDoubleConsumer;

import lab.common.JitThreads;
import lab.launch.Launch;

/**
 * The PostgreSQL the lab started for a service of the user's own, read once a second from outside the service: its
 * active backends and what they wait on ({@code pg_stat_activity}, through one {@code psql} kept open, not a process a
 * second), and its own CPU (the postmaster and every backend, {@code /proc/<pid>/stat}). Series under its source:
 * {@code pg_active_backends}, {@code pg_backends_on_cpu} (active, no wait event), {@code pg_backends_waiting_<type>} per
 * wait event type ({@code Lock}, {@code LWLock}, {@code IO}, {@code Timeout}, {@code Client}, ...; a
 * {@code pg_sleep} shows as {@code Timeout}) and {@code proc_cpu_seconds}.
 */
public final class PostgresWatch {

	/** What a second's answer ends with: psql echoes it after the query's rows. */
	static final String END = "__lab_end__";

	/** Active backends of the database by wait event type, {@code CPU} for none, the watching one left out. */
	static final String QUERY = "SELECT coalesce(wait_event_type, 'CPU'), count(*) FROM pg_stat_activity WHERE datname = current_database() "
			+ "AND state = 'active' AND pid <> pg_backend_pid() GROUP BY 1;";

	private PostgresWatch() {
	}

	/**
	 * @param psql the command that opens {@code psql} into the database ({@code lab.launch.Postgres#psqlCommand})
	 * @param postmaster the server's PID: its CPU and its backends'
	 */
	static ProcessWatch start(List<String> psql, long postmaster, String cpus, ObjDoubleConsumer<String> series) throws IOException {
		List<String> command = new java.util.ArrayList<>(psql);
		command.addAll(List.of("-A", "-t", "-F", "|"));
		Process process = Launch.start(command, cpus, null);
		Cpu serverCpu = new Cpu();
		Thread reader = Thread.ofPlatform().daemon().name("lab-postgres-watch").start(() -> {
			try (PrintWriter in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
					BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				while (process.isAlive()) {
					long next = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
					in.println(QUERY);
					in.println("\\echo " + END);
					Map<String, Double> answer = new LinkedHashMap<>();
					for (String line = out.readLine(); line != null && !line.equals(END); line = out.readLine()) {
						answer.putAll(parse(line));
					}
					activity(answer).forEach(series::accept);
					double cpu = serverCpu.add(postmaster);
					if (!Double.isNaN(cpu)) {
						series.accept("proc_cpu_seconds", cpu);
					}
					TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
				}
			}
			catch (IOException ex) {
				// psql ended (PostgreSQL stopped, or the level is over)
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		return new ProcessWatch(process, reader);
	}

	/** One row of the answer, {@code <wait event type>|<count>}; empty for anything else. */
	static Map<String, Double> parse(String line) {
		String[] fields = line.split("\\|");
		if (fields.length != 2 || !fields[0].matches("[A-Za-z]+") || !fields[1].matches("\\d+")) {
			return Map.of();
		}
		return Map.of(fields[0], Double.parseDouble(fields[1]));
	}

	/** A second's answer as series: the active backends, those on the CPU and those waiting, by wait event type. */
	static Map<String, Double> activity(Map<String, Double> byType) {
		Map<String, Double> series = new LinkedHashMap<>();
		series.put("pg_active_backends", byType.values().stream().mapToDouble(Double::doubleValue).sum());
		series.put("pg_backends_on_cpu", byType.getOrDefault("CPU", 0.0));
		byType.forEach((type, count) -> {
			if (!type.equals("CPU")) {
				series.put("pg_backends_waiting_" + type, count);
			}
		});
		return series;
	}

	/**
	 * The server's CPU seconds as a counter that only grows: each process's growth since it was last read, summed (the
	 * postmaster and every backend; a backend first seen counts its whole CPU, which it spent since the last read). Not
	 * the sum of the live processes' CPU: that drops by a backend's whole life when it ends (a pool retiring a
	 * connection at its maximum lifetime, a JVM's pool closing), which a reader of counters takes for a reset and counts
	 * the whole sum again (a level once read PostgreSQL at 1,769% of its one core so).
	 */
	static final class Cpu {

		private final Map<Long, Double> last = new java.util.HashMap<>();

		private double total;

		/** Adds what each process grew since the last call and returns the total; NaN once the postmaster is gone. */
		double add(long postmaster) {
			Map<Long, Double> now = new java.util.HashMap<>();
			double own = JitThreads.statCpuSeconds(java.nio.file.Path.of("/proc/" + postmaster + "/stat"));
			if (own < 0) {
				return Double.NaN;
			}
			now.put(postmaster, own);
			for (ProcessHandle child : ProcessHandle.of(postmaster).map(p -> p.descendants().toList()).orElse(List.of())) {
				// A backend that ended between the listing and the read counts nothing more (its last part of a second).
				double seconds = JitThreads.statCpuSeconds(java.nio.file.Path.of("/proc/" + child.pid() + "/stat"));
				if (seconds >= 0) {
					now.put(child.pid(), seconds);
				}
			}
			return add(now);
		}

		/** The same from each process's CPU seconds now, by PID. */
		double add(Map<Long, Double> now) {
			now.forEach((pid, seconds) -> this.total += Math.max(0, seconds - this.last.getOrDefault(pid, 0.0)));
			this.last.clear();
			this.last.putAll(now);
			return this.total;
		}

	}

}
