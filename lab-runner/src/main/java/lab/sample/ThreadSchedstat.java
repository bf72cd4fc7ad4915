package lab.sample;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Every thread of a process as the kernel's scheduler counted it, appended to {@code thread-schedstat.csv} as
 * {@code moment,epoch_ms,tid,name,run_ns,wait_ns,slices}: {@code /proc/<pid>/task/<tid>/schedstat} (time on a CPU, time
 * runnable waiting for one, time slices) and {@code comm} (the thread's name, 15 characters). Read by the runner from
 * outside, so the service pays nothing for it and a service with none of the lab's meters has it too.
 */
public final class ThreadSchedstat {

	public static final String HEADER = "moment,epoch_ms,tid,name,run_ns,wait_ns,slices";

	private ThreadSchedstat() {
	}

	/**
	 * Each live thread of {@code pid} with its {@code schedstat} ({@code run_ns, wait_ns, slices}); a thread that ends while
	 * read is skipped. Throws when the process is gone.
	 */
	static void eachThread(long pid, java.util.function.BiConsumer<Path, long[]> each) throws IOException {
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
			for (Path task : tasks) {
				try {
					String[] stat = Files.readString(task.resolve("schedstat")).trim().split("\\s+");
					if (stat.length >= 3) {
						each.accept(task, new long[] { Long.parseLong(stat[0]), Long.parseLong(stat[1]), Long.parseLong(stat[2]) });
					}
				}
				catch (IOException | NumberFormatException ex) {
					// the thread ended between the listing and the read
				}
			}
		}
	}

	/** Appends one row per live thread of {@code pid}, labelled {@code moment}; a thread that ends while read is skipped. */
	public static void snapshot(long pid, String moment, Path file) throws IOException {
		StringBuilder rows = new StringBuilder();
		if (!Files.exists(file)) {
			rows.append(HEADER).append('\n');
		}
		long now = System.currentTimeMillis();
		eachThread(pid, (task, stat) -> {
			try {
				String name = Files.readString(task.resolve("comm")).trim().replace(',', ' ');
				rows.append(moment).append(',').append(now).append(',').append(task.getFileName()).append(',').append(name).append(',')
					.append(stat[0]).append(',').append(stat[1]).append(',').append(stat[2]).append('\n');
			}
			catch (IOException ex) {
				// the thread ended between the listing and the read
			}
		});
		Files.writeString(file, rows, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
	}

}
