package lab.analyse.read;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import lab.json.Json;
import lab.layout.LevelDir;
import tools.jackson.databind.JsonNode;

/**
 * A level's thread dump at the window's end ({@link LevelDir#THREADS_AT_END}, {@code jcmd Thread.dump_to_file
 * -format=json}, JDK 21+): every platform and virtual thread with its stack. Not a snapshot: the JDK dumps the threads
 * one by one, each with the time it was dumped, so a request that ended during the dump and its user's next one may
 * both be in it ({@link #spanMs}).
 *
 * @param threads every thread of every container, in the dump's order
 */
public record ThreadDump(List<DumpedThread> threads) {

	/**
	 * One thread as dumped.
	 *
	 * @param virtual whether it is a virtual thread
	 * @param dumpedAt when the JDK dumped it (null in a dump without times)
	 * @param stack its frames, topmost first, as text
	 */
	public record DumpedThread(boolean virtual, Instant dumpedAt, List<String> stack) {

		/** Whether any of its frames contains {@code frame} ({@code class.method}). */
		public boolean in(String frame) {
			return this.stack.stream().anyMatch(f -> f.contains(frame));
		}

	}

	/** The level's dump; empty without one, or for a file that is not a JSON thread dump. */
	public static Optional<ThreadDump> atEnd(Path levelDir) {
		return read(levelDir.resolve(LevelDir.THREADS_AT_END));
	}

	/** The dump in {@code file}; empty without it, or for a file that is not a JSON thread dump. */
	public static Optional<ThreadDump> read(Path file) {
		if (!Files.isRegularFile(file)) {
			return Optional.empty();
		}
		try {
			JsonNode root = Json.MAPPER.readTree(file.toFile());
			List<DumpedThread> threads = new ArrayList<>();
			for (JsonNode container : root.path("threadDump").path("threadContainers")) {
				for (JsonNode thread : container.path("threads")) {
					List<String> stack = new ArrayList<>();
					thread.path("stack").forEach(frame -> stack.add(frame.asString()));
					String time = thread.path("time").asString("");
					threads.add(new DumpedThread(thread.path("virtual").asBoolean(false), time.isEmpty() ? null : Instant.parse(time), List.copyOf(stack)));
				}
			}
			return Optional.of(new ThreadDump(List.copyOf(threads)));
		}
		catch (RuntimeException ex) {
			return Optional.empty();
		}
	}

	/** Threads with a frame containing {@code frame}: each thread once. */
	public int in(String frame) {
		return (int) this.threads.stream().filter(t -> t.in(frame)).count();
	}

	public int virtualThreads() {
		return (int) this.threads.stream().filter(DumpedThread::virtual).count();
	}

	/** From the first thread dumped to the last, in ms; NaN in a dump without times. */
	public double spanMs() {
		List<Instant> times = this.threads.stream().map(DumpedThread::dumpedAt).filter(java.util.Objects::nonNull).sorted().toList();
		return (times.size() < 2) ? Double.NaN : java.time.Duration.between(times.get(0), times.get(times.size() - 1)).toNanos() / 1e6;
	}

}
