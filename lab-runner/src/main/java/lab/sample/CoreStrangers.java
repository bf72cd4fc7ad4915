package lab.sample;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What other processes ran on the service's cores: once a second, every process's CPU time since the last look
 * ({@code /proc/<pid>/stat}: utime + stime), counted when the CPU it last ran on (field 39) is one of the service's.
 * The service itself, the database the lab started for it (its postmaster and backends), this runner and kernel threads
 * (the kernel's own work, the service's network included) are left out. Each second's total is the cumulative series {@code service/strangers_cpu_seconds}; each process's share is a
 * row of {@code core-strangers.csv} (epoch ms, pid, command name, CPU seconds in that second), the evidence that names
 * them. A multi-threaded process is placed by its main thread's last CPU: exact for one pinned there, an estimate for
 * one that wanders.
 */
final class CoreStrangers {

	private static final double TICKS_PER_SECOND = 100.0;

	/** PF_KTHREAD in /proc/<pid>/stat's flags: a kernel thread. */
	private static final long KERNEL_THREAD = 0x00200000L;

	private final Set<Integer> cores;

	private final long servicePid;

	/** The PostgreSQL the lab started for the service (-1: none): its postmaster and backends belong to the system measured. */
	private final long databasePid;

	private final long self = ProcessHandle.current().pid();

	private final PrintWriter csv;

	private final Map<Long, Double> last = new HashMap<>();

	private double total;

	CoreStrangers(Set<Integer> cores, long servicePid, long databasePid, Path file) throws IOException {
		this.cores = Set.copyOf(cores);
		this.servicePid = servicePid;
		this.databasePid = databasePid;
		this.csv = new PrintWriter(Files.newBufferedWriter(file));
		this.csv.println("epoch_ms,pid,command,cpu_seconds");
		look(0);
	}

	/** One look at every process; returns the strangers' CPU seconds so far. */
	double look(long epochMs) {
		Map<Long, Double> seen = new HashMap<>();
		try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), entry -> entry.getFileName().toString().matches("\\d+"))) {
			for (Path proc : procs) {
				long pid = Long.parseLong(proc.getFileName().toString());
				if (pid == this.servicePid || pid == this.self) {
					continue;
				}
				String stat;
				try {
					stat = Files.readString(proc.resolve("stat"));
				}
				catch (IOException ex) {
					continue;
				}
				int close = stat.lastIndexOf(')');
				String[] f = stat.substring(close + 2).trim().split("\\s+");
				if (f.length < 37 || (Long.parseLong(f[6]) & KERNEL_THREAD) != 0) {
					continue;
				}
				if (this.databasePid > 0 && (pid == this.databasePid || Long.parseLong(f[1]) == this.databasePid)) {
					// The service's database (its postmaster, a backend): counted as its own figure, not a stranger.
					continue;
				}
				double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
				seen.put(pid, cpu);
				Double before = this.last.get(pid);
				if (before != null && cpu > before && this.cores.contains(Integer.parseInt(f[36]))) {
					double delta = cpu - before;
					this.total += delta;
					this.csv.println(epochMs + "," + pid + "," + stat.substring(stat.indexOf('(') + 1, close).replace(',', ' ') + "," + delta);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// A look that failed: the next one counts from what this one saw.
		}
		this.last.clear();
		this.last.putAll(seen);
		this.csv.flush();
		return this.total;
	}

	void close() {
		this.csv.close();
	}

}
