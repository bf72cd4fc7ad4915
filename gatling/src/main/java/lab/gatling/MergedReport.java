package lab.gatling;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.gatling.charts.stats.FirstPassParser;
import io.gatling.core.stats.writer.BufferedFileChannelWriter;
import io.gatling.core.stats.writer.RecordHeader;
import io.gatling.core.stats.writer.RunMessage;
import io.gatling.core.stats.writer.RunMessageSerializer;
import lab.layout.LevelDir;
import scala.Tuple3;

/**
 * One Gatling report over several injectors' records of one level. Gatling's documented way to scale out is to
 * gather every injector's {@code simulation.log} and generate one report from them; since Gatling 3.12 the log is
 * binary and reports-only mode reads exactly one (gatling/gatling#4591), so this writes the injectors' records into
 * one log with Gatling's own writer, each record's times moved onto the earliest injector's start, then runs Gatling
 * in reports-only mode on it. The record layouts are Gatling 3.15's and 3.16's (the reader's, in gatling-charts'
 * {@code FirstPassParser}); a log of another layout fails to parse and no merged report is written.
 *
 * <p>Usage: {@code MergedReport <report directory> <simulation.log>...}; the report lands in the directory, beside the
 * merged log.
 */
public final class MergedReport {

	private static final byte RUN = RecordHeader.Run$.MODULE$.value();

	private static final byte USER = RecordHeader.User$.MODULE$.value();

	private static final byte REQUEST = RecordHeader.Request$.MODULE$.value();

	private static final byte GROUP = RecordHeader.Group$.MODULE$.value();

	private static final byte ERROR = RecordHeader.Error$.MODULE$.value();

	private MergedReport() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 2) {
			System.err.println("usage: MergedReport <report directory> <simulation.log>...");
			System.exit(2);
		}
		Path out = Path.of(args[0]).toAbsolutePath();
		List<Path> logs = Arrays.stream(args).skip(1).map(Path::of).toList();
		long requests = merge(logs, out.resolve(LevelDir.SIMULATION_LOG));
		System.out.println("merged " + requests + " request records of " + logs.size() + " logs into " + out.resolve(LevelDir.SIMULATION_LOG));
		io.gatling.app.Gatling.main(new String[] { "-ro", out.getFileName().toString(), "-rf", out.getParent().toString() });
	}

	/** Writes every record of {@code logs} into {@code merged}; returns the number of request records. */
	public static long merge(List<Path> logs, Path merged) throws Exception {
		List<Tuple3<RunMessage, String[], scala.collection.immutable.List<io.gatling.commons.stats.assertion.Assertion>>> runs = new ArrayList<>();
		for (Path log : logs) {
			try (FirstPassParser parser = new FirstPassParser(log.toFile(), ZoneId.systemDefault())) {
				runs.add(runRecord(parser, log));
			}
		}
		long start = runs.stream().mapToLong(run -> run._1().start()).min().orElseThrow();
		String[] scenarios = runs.get(0)._2();
		for (int i = 1; i < runs.size(); i++) {
			if (!Arrays.equals(scenarios, runs.get(i)._2())) {
				throw new IllegalArgumentException(logs.get(i) + " ran other scenarios than " + logs.get(0));
			}
		}
		Files.createDirectories(merged.getParent());
		long requests = 0;
		try (FileChannel channel = FileChannel.open(merged, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
				BufferedFileChannelWriter writer = new BufferedFileChannelWriter(channel, ByteBuffer.allocate(64 * 1024))) {
			RunMessage first = runs.get(0)._1();
			Map<String, Object> byIndex = new LinkedHashMap<>();
			for (int i = 0; i < scenarios.length; i++) {
				byIndex.put(scenarios[i], i);
			}
			new RunMessageSerializer(writer).serialize(new Tuple3<RunMessage, scala.collection.immutable.Seq<io.gatling.commons.stats.assertion.Assertion>, Map<String, Object>>(first.copy(first.simulationClassName(), first.simulationId(), start,
					first.runDescription(), first.gatlingVersion(), first.zoneId()), runs.get(0)._3(), byIndex));
			for (int i = 0; i < logs.size(); i++) {
				requests += copyRecords(logs.get(i), (int) (runs.get(i)._1().start() - start), writer);
			}
			writer.flush();
		}
		return requests;
	}

	@SuppressWarnings("unchecked")
	private static Tuple3<RunMessage, String[], scala.collection.immutable.List<io.gatling.commons.stats.assertion.Assertion>> runRecord(FirstPassParser parser, Path log) throws Exception {
		if (parser.readByte() != RUN) {
			throw new IllegalArgumentException(log + " does not start with a Gatling run record");
		}
		Method method = FirstPassParser.class.getDeclaredMethod("parseRunRecord");
		method.setAccessible(true);
		return (Tuple3<RunMessage, String[], scala.collection.immutable.List<io.gatling.commons.stats.assertion.Assertion>>) method.invoke(parser);
	}

	/** What a log's records hold, one call per record after its run record (Gatling 3.15's and 3.16's layouts; times in ms from the run's start). */
	public interface Records {

		void user(int scenario, boolean start, int time);

		void request(List<String> groups, String name, int start, int end, byte status, String message);

		void group(List<String> groups, int start, int end, int cumulated, byte status);

		void error(String message, int time);

	}

	/** Reads every record of {@code log} after its run record into {@code records}, with Gatling's own parser. */
	public static void read(Path log, Records records) throws Exception {
		try (FirstPassParser in = new FirstPassParser(log.toFile(), ZoneId.systemDefault())) {
			runRecord(in, log);
			for (int header = in.read(); header != -1; header = in.read()) {
				if (header == USER) {
					records.user(in.readInt(), in.readBoolean(), in.readInt());
				}
				else if (header == REQUEST) {
					List<String> groups = groups(in);
					records.request(groups, in.readCachedSanitizedString(), in.readInt(), in.readInt(), in.readByte(), in.readCachedSanitizedString());
				}
				else if (header == GROUP) {
					List<String> groups = groups(in);
					records.group(groups, in.readInt(), in.readInt(), in.readInt(), in.readByte());
				}
				else if (header == ERROR) {
					records.error(in.readCachedSanitizedString(), in.readInt());
				}
				else {
					throw new IOException(log + ": a record Gatling 3.16 does not write (header " + header + ")");
				}
			}
		}
	}

	/** The response time (end - start, ms) of every request record of {@code log}, by request name. */
	public static Map<String, List<Integer>> responseTimes(Path log) throws Exception {
		Map<String, List<Integer>> byName = new LinkedHashMap<>();
		read(log, new Records() {

			@Override
			public void user(int scenario, boolean start, int time) {
			}

			@Override
			public void request(List<String> groups, String name, int start, int end, byte status, String message) {
				byName.computeIfAbsent(name, n -> new ArrayList<>()).add(end - start);
			}

			@Override
			public void group(List<String> groups, int start, int end, int cumulated, byte status) {
			}

			@Override
			public void error(String message, int time) {
			}

		});
		return byName;
	}

	/** Copies one log's records after its run record, each time moved by {@code shift} ms; the request count. */
	private static long copyRecords(Path log, int shift, BufferedFileChannelWriter writer) throws Exception {
		long[] requests = { 0 };
		read(log, new Records() {

			@Override
			public void user(int scenario, boolean start, int time) {
				writer.writeByte(USER);
				writer.writeInt(scenario);
				writer.writeBoolean(start);
				writer.writeInt(time + shift);
			}

			@Override
			public void request(List<String> groups, String name, int start, int end, byte status, String message) {
				writer.writeByte(REQUEST);
				writeGroups(groups, writer);
				writer.writeCachedString(name);
				writer.writeInt(start + shift);
				writer.writeInt(end + shift);
				writer.writeByte(status);
				writer.writeCachedString(message);
				requests[0]++;
			}

			@Override
			public void group(List<String> groups, int start, int end, int cumulated, byte status) {
				writer.writeByte(GROUP);
				writeGroups(groups, writer);
				writer.writeInt(start + shift);
				writer.writeInt(end + shift);
				writer.writeInt(cumulated);
				writer.writeByte(status);
			}

			@Override
			public void error(String message, int time) {
				writer.writeByte(ERROR);
				writer.writeCachedString(message);
				writer.writeInt(time + shift);
			}

		});
		return requests[0];
	}

	private static List<String> groups(FirstPassParser in) {
		int count = in.readInt();
		List<String> groups = new ArrayList<>(count);
		for (int g = 0; g < count; g++) {
			groups.add(in.readCachedSanitizedString());
		}
		return groups;
	}

	private static void writeGroups(List<String> groups, BufferedFileChannelWriter writer) {
		writer.writeInt(groups.size());
		groups.forEach(writer::writeCachedString);
	}

}
