package lab.analyse.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code metrics.csv} of a level: every sample by source (service, downstream, injector) and series. */
public final class Samples {

	private final Map<String, List<TimeSeries.Sample>> bySourceAndSeries = new HashMap<>();

	public static Samples read(Path csv) throws IOException {
		Samples samples = new Samples();
		if (!Files.isRegularFile(csv)) {
			return samples;
		}
		try (var lines = Files.lines(csv)) {
			lines.skip(1).forEach(line -> {
				String[] f = line.split(",");
				if (f.length == 4) {
					try {
						samples.bySourceAndSeries.computeIfAbsent(f[1] + "/" + f[2], k -> new ArrayList<>())
							.add(new TimeSeries.Sample(Long.parseLong(f[0]), Double.parseDouble(f[3])));
					}
					catch (NumberFormatException ex) {
						// a line cut short by an interrupted run: skipped
					}
				}
			});
		}
		return samples;
	}

	/** Every source whose name starts with {@code prefix} ("injector" finds injector, injector-1, injector-2). */
	public List<String> sources(String prefix) {
		return this.bySourceAndSeries.keySet().stream().map(key -> key.substring(0, key.indexOf('/')))
			.filter(source -> source.startsWith(prefix)).distinct().sorted().toList();
	}

	/** The names of {@code source}'s series that start with {@code prefix}, sorted. */
	public List<String> seriesNames(String source, String prefix) {
		String key = source + "/" + prefix;
		return this.bySourceAndSeries.keySet().stream().filter(k -> k.startsWith(key)).map(k -> k.substring(source.length() + 1)).sorted().toList();
	}

	public TimeSeries series(String source, String series) {
		return new TimeSeries(this.bySourceAndSeries.getOrDefault(source + "/" + series, List.of()));
	}

	/** The downstream's cumulative overhead buckets: upper bound in seconds → series. */
	public Map<Double, TimeSeries> buckets(String source) {
		return buckets(source, "overhead");
	}

	/** A histogram's cumulative buckets ({@code <name>_le_<seconds>}): upper bound in seconds → series. */
	public Map<Double, TimeSeries> buckets(String source, String name) {
		Map<Double, TimeSeries> buckets = new HashMap<>();
		String prefix = source + "/" + name + "_le_";
		this.bySourceAndSeries.forEach((key, values) -> {
			if (key.startsWith(prefix)) {
				String bound = key.substring(prefix.length());
				buckets.put(bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound), new TimeSeries(values));
			}
		});
		return buckets;
	}

}
