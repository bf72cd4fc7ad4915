package lab.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ObjDoubleConsumer;

import lab.launch.Launch;

/**
 * A JVM's heap and GC read from outside: {@code jstat -gc <pid> 1000} of the JDK it runs on. jstat reads the JVM's
 * perf-data memory ({@code hsperfdata}), shared by the JVM without attaching to it or stopping it at a safepoint; the
 * service runs none of the lab's code. Each line becomes series of jstat's own names, never the Micrometer meters' (they
 * are other quantities): {@code jstat_heap_bytes} (S0U + S1U + EU + OU, in KiB), {@code jstat_old_bytes} (OU, the old
 * generation's occupancy, promoted garbage included: above a live-data meter), and the pause series the lab's own
 * services report the same way, {@code gc_pause_seconds} (GCT: young, full and concurrent-cycle pause time) and {@code gc_pause_count} (YGC + FGC +
 * CGC). Its output is kept as printed. On JDK 25 with Serial GC (the t2-micro profile's) jstat's eden count (EU) reads 0
 * between collections, so the heap used it gives is the heap after the last collection: below the peak the lab's own
 * services report through Micrometer, which counts the eden filling up.
 */
public final class JstatWatch {

	private JstatWatch() {
	}

	static ProcessWatch start(Path javaHome, long pid, String cpus, Path file, ObjDoubleConsumer<String> series) throws IOException {
		Path jstat = javaHome.resolve("bin/jstat");
		if (!Files.isExecutable(jstat)) {
			throw new IOException(jstat + " is missing: the service's heap and GC cannot be read (a JRE has no jstat; run it on a JDK)");
		}
		Process process = Launch.start(List.of(jstat.toString(), "-gc", Long.toString(pid), "1000"), cpus, null);
		Thread reader = Thread.ofPlatform().daemon().name("lab-jstat").start(() -> {
			try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
					PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
				List<String> header = null;
				for (String line = in.readLine(); line != null; line = in.readLine()) {
					out.println(System.currentTimeMillis() + " " + line);
					out.flush();
					String[] fields = line.trim().split("\\s+");
					if (fields.length > 0 && fields[0].equals("S0C")) {
						header = List.of(fields);
						continue;
					}
					if (header != null) {
						parse(header, fields).forEach(series::accept);
					}
				}
			}
			catch (IOException ex) {
				// jstat ended (the service is gone, or the level is over)
			}
		});
		return new ProcessWatch(process, reader);
	}

	/** The series of one {@code jstat -gc} line under its header; empty when the line does not fit it. */
	static Map<String, Double> parse(List<String> header, String[] fields) {
		Map<String, Double> values = new LinkedHashMap<>();
		if (fields.length != header.size()) {
			return values;
		}
		Map<String, Double> column = new LinkedHashMap<>();
		for (int i = 0; i < fields.length; i++) {
			try {
				column.put(header.get(i), fields[i].equals("-") ? 0.0 : Double.parseDouble(fields[i]));
			}
			catch (NumberFormatException ex) {
				return values;
			}
		}
		List<String> used = new ArrayList<>(List.of("S0U", "S1U", "EU", "OU"));
		if (column.keySet().containsAll(used)) {
			values.put("jstat_heap_bytes", 1024 * used.stream().mapToDouble(column::get).sum());
		}
		if (column.containsKey("OU")) {
			// The old generation's occupancy: what young collections promoted, garbage included until a full collection,
			// so above the live data the lab's own services report (the old generation after the last full collection).
			values.put("jstat_old_bytes", 1024 * column.get("OU"));
		}
		if (column.containsKey("GCT")) {
			values.put("gc_pause_seconds", column.get("GCT"));
		}
		if (column.containsKey("YGC") && column.containsKey("FGC")) {
			values.put("gc_pause_count", column.get("YGC") + column.get("FGC") + column.getOrDefault("CGC", 0.0));
		}
		return values;
	}

}
