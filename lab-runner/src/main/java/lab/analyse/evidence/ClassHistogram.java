package lab.analyse.evidence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.sample.HeapSnapshot;

/**
 * A {@code jcmd GC.class_histogram}: bytes and instances per class, live objects only (the command runs a full GC
 * first). Class names lose their module suffix ({@code [B (java.base@25)} → {@code byte[]}) so histograms of
 * different JDK builds line up. {@code totalBytes}: its {@code Total} line, -1 when it has none.
 */
public record ClassHistogram(Map<String, long[]> classes, long totalBytes) {

	/** The JVM's heap filler arrays as {@link #readable} names them ({@link lab.sample.HeapSnapshot#FILLER}'s descriptor). */
	static final String FILLER = readable(HeapSnapshot.FILLER);

	/**
	 * The live heap it shows: its {@code Total} less the JVM's heap filler arrays (dead space a full GC left in place,
	 * not objects anyone holds); NaN when the total is absent (jcmd failed or timed out). The same figure as
	 * {@link lab.sample.HeapSnapshot#liveBytes}, from the histogram read once.
	 */
	public double liveBytes() {
		if (this.totalBytes < 0) {
			return Double.NaN;
		}
		long fillers = this.classes.entrySet().stream().filter(e -> e.getKey().startsWith(FILLER)).mapToLong(e -> e.getValue()[1]).sum();
		return this.totalBytes - fillers;
	}

	/** One class's share of the requests in flight: bytes and instances per request. */
	public record Share(String className, double bytesPerRequest, double instancesPerRequest) {
	}

	public static ClassHistogram read(Path file) throws IOException {
		Map<String, long[]> classes = new LinkedHashMap<>();
		long total = -1;
		for (String line : Files.readAllLines(file)) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length == 3 && fields[0].equals("Total")) {
				total = Long.parseLong(fields[2]);
			}
			else if (fields.length >= 4 && fields[0].endsWith(":") && fields[0].substring(0, fields[0].length() - 1).chars().allMatch(Character::isDigit)) {
				long instances = Long.parseLong(fields[1]);
				long bytes = Long.parseLong(fields[2]);
				long[] sums = classes.computeIfAbsent(readable(fields[3]), k -> new long[2]);
				sums[0] += instances;
				sums[1] += bytes;
			}
		}
		return new ClassHistogram(classes, total);
	}

	/**
	 * What each request in flight adds over {@code idle}: per class, (bytes here − bytes idle) / inFlight, the
	 * {@code top} largest, biggest first. Classes that shrank are left out.
	 */
	public List<Share> perRequestOver(ClassHistogram idle, double inFlight, int top) {
		List<Share> shares = new ArrayList<>();
		if (!(inFlight > 0)) {
			return shares;
		}
		this.classes.forEach((name, sums) -> {
			long[] before = idle.classes.getOrDefault(name, new long[2]);
			long bytes = sums[1] - before[1];
			// The JVM's heap filler arrays are gaps, not objects anyone holds.
			if (bytes > 0 && !name.startsWith(FILLER)) {
				shares.add(new Share(name, bytes / inFlight, (sums[0] - before[0]) / inFlight));
			}
		});
		shares.sort(Comparator.comparingDouble(Share::bytesPerRequest).reversed());
		return shares.subList(0, Math.min(top, shares.size()));
	}

	/** JVM descriptors as Java spells them: {@code [B} → {@code byte[]}, {@code [Ljava.lang.Object;} → {@code java.lang.Object[]}. */
	static String readable(String descriptor) {
		int dims = 0;
		while (dims < descriptor.length() && descriptor.charAt(dims) == '[') {
			dims++;
		}
		if (dims == 0) {
			return descriptor;
		}
		String element = descriptor.substring(dims);
		String base = switch (element) {
			case "B" -> "byte";
			case "C" -> "char";
			case "I" -> "int";
			case "J" -> "long";
			case "S" -> "short";
			case "Z" -> "boolean";
			case "F" -> "float";
			case "D" -> "double";
			default -> element.startsWith("L") && element.endsWith(";") ? element.substring(1, element.length() - 1) : element;
		};
		return base + "[]".repeat(dims);
	}

}
