package lab.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvSchema;

/**
 * Values a request of a service of the user's own takes in turn, so its users do not all send the same path (Gatling's
 * feeders): from ranges ({@code id: 1-1000}) or from a CSV file beside the service file, its header naming the keys.
 * A request names a value as {@code {key}} in its path, a header's value or its body.
 *
 * @param values each key's range of whole numbers, {@code from-to} (both included); none with {@code file}
 * @param file a CSV file, relative to the service file, its first line the keys; none with {@code values}
 * @param strategy Gatling's feeder strategy: {@code circular} (in order, round again; the default) or {@code random}
 */
public record Feed(Map<String, String> values, Path file, String strategy) {

	/** The largest range the lab expands (values written once per run, beside the request mix). */
	static final long MAX_VALUES = 1_000_000;

	private static final Pattern RANGE = Pattern.compile("(-?\\d{1,18})\\s*-\\s*(-?\\d{1,18})");

	private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

	public Feed {
		values = (values != null) ? new LinkedHashMap<>(values) : new LinkedHashMap<>();
		strategy = (strategy != null) ? strategy : "circular";
	}

	/** The file relative to the service file's directory. */
	Feed resolvedAgainst(Path base) {
		return new Feed(this.values, (this.file != null) ? base.resolve(this.file).normalize() : null, this.strategy);
	}

	/** The keys a request may name: the ranges', or the CSV's header (none when it cannot be read: a problem says why). */
	List<String> keys() {
		if (this.file == null) {
			return List.copyOf(this.values.keySet());
		}
		try {
			return List.copyOf(records(1).get(0).keySet());
		}
		catch (IOException | RuntimeException ex) {
			return List.of();
		}
	}

	/** Every problem of the feed of request {@code at}, each naming its field and the fix. */
	List<String> problems(String at, String... uses) {
		List<String> problems = new ArrayList<>();
		if (!this.strategy.equals("circular") && !this.strategy.equals("random")) {
			problems.add(at + ".strategy must be circular (in order, then again) or random, got '" + this.strategy + "'");
		}
		if ((this.file == null) == this.values.isEmpty()) {
			problems.add(at + " needs either values (e.g. {id: 1-1000}) or file (a CSV beside the service file, its header the keys), not "
					+ ((this.file == null) ? "neither" : "both"));
			return problems;
		}
		if (this.file != null) {
			problems.addAll(fileProblems(at));
		}
		this.values.forEach((key, range) -> {
			if (!KEY.matcher(key).matches()) {
				problems.add(at + ".values: key '" + key + "' must be letters, digits and _ (named as {" + key + "} in the path)");
			}
			Matcher m = RANGE.matcher(String.valueOf(range).strip());
			if (!m.matches()) {
				problems.add(at + ".values." + key + " must be a range of whole numbers from-to, e.g. 1-1000, got '" + range + "'");
			}
			else if (Long.parseLong(m.group(2)) < Long.parseLong(m.group(1)) || Long.parseLong(m.group(2)) - Long.parseLong(m.group(1)) >= MAX_VALUES) {
				problems.add(at + ".values." + key + " must run upwards and hold at most " + MAX_VALUES + " values, got '" + range + "'");
			}
		});
		List<String> keys = keys();
		if (!keys.isEmpty() && java.util.Arrays.stream(uses).noneMatch(use -> use != null && keys.stream().anyMatch(k -> use.contains("{" + k + "}")))) {
			problems.add(at + " feeds " + keys + " but its path, headers and body name none of them: write {" + keys.get(0) + "} where the value goes");
		}
		return problems;
	}

	private List<String> fileProblems(String at) {
		if (!Files.isRegularFile(this.file)) {
			return List.of(at + ".file " + this.file + " does not exist: give a CSV file relative to the service file");
		}
		try {
			List<Map<String, String>> rows = records(Integer.MAX_VALUE);
			if (rows.isEmpty()) {
				return List.of(at + ".file " + this.file + " has a header but no values: add a line of values under it");
			}
			for (String key : rows.get(0).keySet()) {
				if (!KEY.matcher(key).matches()) {
					return List.of(at + ".file " + this.file + ": header '" + key + "' must be letters, digits and _ (named as {key} in the path)");
				}
			}
			return List.of();
		}
		catch (IOException | RuntimeException ex) {
			return List.of(at + ".file " + this.file + " is not a CSV file with a header line: " + ex.getMessage().lines().findFirst().orElse(""));
		}
	}

	/** The feed's values, one map a record: the CSV's lines, or the ranges read in step. */
	public List<Map<String, String>> records() throws IOException {
		return records(Integer.MAX_VALUE);
	}

	private List<Map<String, String>> records(int most) throws IOException {
		List<Map<String, String>> records = new ArrayList<>();
		if (this.file != null) {
			CsvMapper csv = new CsvMapper();
			// Every line must have as many values as the header (a short or long line is an error, not a guess).
			CsvSchema schema = CsvSchema.emptySchema().withHeader().withStrictHeaders(true);
			try (MappingIterator<Map<String, String>> lines = csv.readerFor(Map.class).with(schema)
				.with(tools.jackson.dataformat.csv.CsvReadFeature.FAIL_ON_MISSING_COLUMNS)
				.with(tools.jackson.dataformat.csv.CsvReadFeature.FAIL_ON_MISSING_HEADER_COLUMNS)
				.readValues(this.file.toFile())) {
				while (lines.hasNext() && records.size() < most) {
					records.add(lines.next());
				}
			}
			return records;
		}
		// Ranges are read in step: record n holds each key's n-th value, the shorter ranges starting over.
		Map<String, long[]> ranges = new LinkedHashMap<>();
		this.values.forEach((key, range) -> {
			Matcher m = RANGE.matcher(String.valueOf(range).strip());
			if (m.matches()) {
				ranges.put(key, new long[] { Long.parseLong(m.group(1)), Long.parseLong(m.group(2)) });
			}
		});
		long longest = ranges.values().stream().mapToLong(r -> r[1] - r[0] + 1).max().orElse(0);
		for (long n = 0; n < Math.min(longest, most); n++) {
			Map<String, String> record = new LinkedHashMap<>();
			for (Map.Entry<String, long[]> range : ranges.entrySet()) {
				long size = range.getValue()[1] - range.getValue()[0] + 1;
				record.put(range.getKey(), Long.toString(range.getValue()[0] + n % size));
			}
			records.add(record);
		}
		return records;
	}

}
