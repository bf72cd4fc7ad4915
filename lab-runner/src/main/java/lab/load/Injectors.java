package lab.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.function.Function;

import lab.plan.Remote;
import lab.layout.Level;
import lab.layout.ProgressLine;

/**
 * The load generators of a run. By default one local Gatling process writing straight into the level's
 * directory. With {@code --injectors} several, local or over SSH, started together, each on its share of the
 * users (or arrivals) and each writing into {@code injector-<n>/} of the level: the analysis merges their
 * histograms and sums their counts, and every injector's own Gatling HTML report is kept.
 */
public final class Injectors {

	private final List<String> hosts;

	private final Path root;

	private final Path java;

	private final String cpus;

	private Injectors(List<String> hosts, Path root, Path java, String cpus) {
		this.hosts = hosts;
		this.root = root;
		this.java = java;
		this.cpus = cpus;
	}

	/** @param cpus where local injectors are pinned, null for anywhere */
	public static Injectors of(Remote remote, Path root, Path java, String cpus) {
		return new Injectors(remote.injectors(), root, java, cpus);
	}

	/** Copies the simulation to every SSH host once; a host that cannot take it stops the run here. */
	public void install() throws IOException, InterruptedException {
		for (String host : this.hosts.stream().distinct().toList()) {
			if (!Remote.LOCAL.equals(host)) {
				Ssh.to(host).install(this.root);
			}
		}
	}

	/** Injector {@code index}'s share of {@code total}: an even split, the remainder to the first ones, at least 1. */
	static int share(int total, int count, int index) {
		return Math.max(1, total / count + ((index < total % count) ? 1 : 0));
	}

	/** Injector {@code index}'s share of a level split over {@code count}: the same kind of level, a part of its amount. */
	static Level share(Level level, int count, int index) {
		int amount = share(level.amount(), count, index);
		return switch (level) {
			case Level.Closed closed -> new Level.Closed(amount);
			case Level.Open open -> new Level.Open(amount);
		};
	}

	/**
	 * Starts every injector at once.
	 * @param properties the simulation's properties for a share of the level
	 */
	public Load start(Level level, Function<Level, List<String>> properties, long timeoutSeconds, Path dir,
			Consumer<ProgressLine> progress) throws IOException {
		if (this.hosts.isEmpty()) {
			return new Load(List.of(GatlingRun.start(this.root, this.java, properties.apply(level), this.cpus, dir, progress)),
					dir, List.of(dir), this);
		}
		int count = this.hosts.size();
		// One progress line for all: the sum of each injector's latest second.
		AtomicLongArray ok = new AtomicLongArray(count);
		AtomicLongArray ko = new AtomicLongArray(count);
		List<GatlingRun> runs = new ArrayList<>();
		List<Path> parts = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			int index = i;
			List<String> share = properties.apply(share(level, count, i));
			Path part = LoadFiles.injectorDir(dir, i + 1);
			parts.add(part);
			Consumer<ProgressLine> combined = line -> {
				ok.set(index, line.ok());
				ko.set(index, line.ko());
				if (index == 0) {
					long okSum = 0;
					long koSum = 0;
					for (int j = 0; j < count; j++) {
						okSum += ok.get(j);
						koSum += ko.get(j);
					}
					progress.accept(new ProgressLine(okSum, koSum));
				}
			};
			String host = this.hosts.get(i);
			runs.add(Remote.LOCAL.equals(host) ? GatlingRun.start(this.root, this.java, share, this.cpus, part, combined)
					: GatlingRun.startOver(Ssh.to(host), share, timeoutSeconds, part, combined));
		}
		return new Load(List.copyOf(runs), dir, List.copyOf(parts), this);
	}

	/** The injectors of one level or warm-up, running, each with the directory it writes into. */
	public record Load(List<GatlingRun> runs, Path level, List<Path> dirs, Injectors injectors) {

		/** PIDs of the injectors that run on this machine, for the sampler, by {@link LoadFiles#injectorSource}. */
		public Map<String, Long> localPids() {
			Map<String, Long> pids = new LinkedHashMap<>();
			for (int i = 0; i < this.runs.size(); i++) {
				OptionalLong pid = this.runs.get(i).pid();
				if (pid.isPresent()) {
					pids.put(LoadFiles.injectorSource(this.level, this.dirs.get(i)), pid.getAsLong());
				}
			}
			return pids;
		}

		/**
		 * Waits for every injector (each up to the timeout); the worst exit code, -1 when one had to be stopped. When
		 * several drove the level, Gatling's one report over all their records is made then ({@link GatlingRun#mergeReports}).
		 */
		public int await(long timeoutSeconds) throws IOException, InterruptedException {
			int worst = 0;
			for (GatlingRun run : this.runs) {
				int exit = run.await(timeoutSeconds);
				worst = (exit == -1 || worst == -1) ? -1 : Math.max(worst, exit);
			}
			if (this.dirs.size() > 1) {
				GatlingRun.mergeReports(this.injectors.root, this.injectors.java, this.injectors.cpus, this.level, this.dirs);
			}
			return worst;
		}

	}

}
