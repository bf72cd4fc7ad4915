package lab.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The results directory's disk: enough free space before a run (an estimate from the plan), and a guard during it.
 * A run whose disk fills stops at once, as Ctrl-C stops it: every child ended, one line naming the disk and what to
 * do, exit {@link #EXIT_CODE}; what was written before is kept for {@code ./lab report}. The guard stops the run
 * while {@link #FLOOR_BYTES} are still free, before a write fails halfway (a truncated file reads as garbage).
 */
public final class Storage {

	/** The exit code of a run stopped because its results disk filled (documented in docs/running.md). */
	public static final int EXIT_CODE = 4;

	/** Free space below which the run stops: more than one second of any level's writes. */
	public static final long FLOOR_BYTES = 2L << 20;

	private static final AtomicReference<String> full = new AtomicReference<>();

	private Storage() {
	}

	/**
	 * Refuses a plan that cannot fit: the free space of {@code results}' disk against {@code neededBytes}.
	 *
	 * @return the reason, in one line with the fix, or null when it fits
	 */
	public static String tooSmall(Path results, long neededBytes) throws IOException {
		long free = freeBytes(results);
		if (free >= neededBytes + FLOOR_BYTES) {
			return null;
		}
		return String.format(Locale.ROOT, "the results directory %s is on a disk with %s free; this run needs about %s (an estimate from its "
				+ "plan: every service run, level and request): free space there, or write the results elsewhere with --out", results,
				mib(free), mib(neededBytes + FLOOR_BYTES));
	}

	/** The bytes free to this process on the disk {@code path} is (or would be) on. */
	public static long freeBytes(Path path) throws IOException {
		return Files.getFileStore(existing(path)).getUsableSpace();
	}

	/** The free space of the disk {@code path} is (or would be) on, in words: "1.2 GiB free on /dev/vda". */
	public static String describe(Path path) throws IOException {
		FileStore store = Files.getFileStore(existing(path));
		return mib(store.getUsableSpace()) + " free on " + store.name();
	}

	/**
	 * Watches {@code results}' disk every half second while a run is on (a daemon thread, ended by closing what this
	 * returns): below {@link #FLOOR_BYTES} free it says so in one line and stops every child, so whatever the runner
	 * waits on returns. A directory that is gone (removed after its run) ends the watch, not the run.
	 */
	public static AutoCloseable guard(Path results, PrintStream out) {
		full.set(null);
		Interruption.clearStop();
		Thread guard = new Thread(() -> {
			while (full.get() == null && !Thread.currentThread().isInterrupted()) {
				try {
					FileStore store = Files.getFileStore(results);
					long free = store.getUsableSpace();
					if (free < FLOOR_BYTES) {
						stop(results, "no space left on device: " + mib(free) + " free on " + store.name(), out);
					}
					Thread.sleep(500);
				}
				catch (IOException ex) {
					return;
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}, "lab-storage-guard");
		guard.setDaemon(true);
		guard.start();
		return guard::interrupt;
	}

	/** A write to {@code path} failed for want of space (or the guard found none): the run stops, saying so once. */
	public static void stop(Path path, String cause, PrintStream out) {
		if (full.compareAndSet(null, path + ": " + cause)) {
			out.println("lab: the results disk is full, the run stops (" + path + ": " + cause + "). Free space on that disk, or run with --out "
					+ "on another; what was written so far is kept: ./lab report renders it (exit code " + EXIT_CODE + ")");
			Interruption.stopRun();
			Children.shutDown();
		}
	}

	/** Whether the results disk filled during this run. */
	public static boolean full() {
		return full.get() != null;
	}

	/** Whether {@code ex} (or a cause of it) is a write refused for want of space. */
	public static boolean isNoSpace(Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			String message = String.valueOf(t.getMessage());
			if (message.contains("No space left on device") || message.contains("Disk quota exceeded")) {
				return true;
			}
		}
		return false;
	}

	private static Path existing(Path path) {
		Path existing = path.toAbsolutePath();
		while (existing != null && !Files.exists(existing)) {
			existing = existing.getParent();
		}
		return (existing != null) ? existing : Path.of("/");
	}

	private static String mib(long bytes) {
		return (bytes >= (1L << 30)) ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
				: String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
	}

}
