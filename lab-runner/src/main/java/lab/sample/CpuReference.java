package lab.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A short, fixed piece of CPU work timed on the service's core between a search's rounds: the same code every time
 * (SHA-256 over a fixed 64 KiB buffer, {@value #BATCH} times a batch, in its own JVM pinned like the service), so a
 * change of its time says the core itself got slower or faster (frequency, a neighbour, the host), not a service.
 * Its {@link #main} prints the median of {@value #BATCHES} batches in ms after a warm-up; {@link #time} runs it.
 */
public final class CpuReference {

	static final int BATCH = 1_500;

	static final int BATCHES = 7;

	static final int WARMUP = 10_000;

	private CpuReference() {
	}

	public static void main(String[] args) throws NoSuchAlgorithmException {
		byte[] buffer = new byte[64 * 1024];
		for (int i = 0; i < buffer.length; i++) {
			buffer[i] = (byte) (i * 31 + 7);
		}
		MessageDigest sha = MessageDigest.getInstance("SHA-256");
		long sink = 0;
		// Warm-up, about 0.3 s: the JIT compiles the loop and the digest (C2 included) before the timed batches.
		for (int i = 0; i < WARMUP; i++) {
			sink += sha.digest(buffer)[0];
		}
		double[] batches = new double[BATCHES];
		for (int b = 0; b < BATCHES; b++) {
			long start = System.nanoTime();
			for (int i = 0; i < BATCH; i++) {
				sink += sha.digest(buffer)[0];
			}
			batches[b] = (System.nanoTime() - start) / 1e6;
		}
		Arrays.sort(batches);
		System.out.println(batches[BATCHES / 2] + " " + (sink & 1));
	}

	/**
	 * The reference's median batch time in ms, in a JVM of {@code java} pinned to {@code cpus} (null: unpinned); NaN
	 * when it could not be timed (the search then marks nothing for it; the first failure is said on standard error).
	 */
	public static double time(Path java, String cpus) throws InterruptedException {
		List<String> command = new ArrayList<>();
		if (cpus != null) {
			command.addAll(List.of("taskset", "-c", cpus));
		}
		command.addAll(List.of(java.toString(), "-XX:ActiveProcessorCount=1", "-XX:+UseSerialGC", "-Xmx64m"));
		command.addAll(launch(System.getProperty("java.class.path")));
		String output = "";
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return failed(command, "no answer in 60 s");
			}
			output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			return (process.exitValue() == 0) ? Double.parseDouble(output.split("\\s+")[0]) : failed(command, output);
		}
		catch (IOException | RuntimeException ex) {
			return failed(command, ex + " " + output);
		}
	}

	private static volatile boolean failureSaid;

	private static double failed(List<String> command, String why) {
		if (!failureSaid) {
			failureSaid = true;
			System.err.println("lab: the CPU reference could not be timed (" + String.join(" ", command) + "): "
					+ why.substring(0, Math.min(300, why.length())));
		}
		return Double.NaN;
	}

	/**
	 * How to start this class from the runner's class path: the runner's own jar is a Spring Boot jar (its classes under
	 * {@code BOOT-INF/}, started by its launcher with {@code loader.main}); anything else (the build's classes in tests)
	 * is an ordinary class path.
	 */
	static List<String> launch(String classPath) {
		String[] entries = classPath.split(java.io.File.pathSeparator);
		if (entries.length == 1 && entries[0].endsWith(".jar")) {
			return List.of("-cp", entries[0], "-Dloader.main=" + CpuReference.class.getName(), "org.springframework.boot.loader.launch.PropertiesLauncher");
		}
		return List.of("-cp", classPath, CpuReference.class.getName());
	}

	/** The host's steal ticks and all CPU ticks so far, from {@code /proc/stat}'s first line; zeros where it cannot be read. */
	public static long[] stealAndTotalTicks() {
		try {
			String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
			String[] f = first.trim().split("\\s+");
			long total = 0;
			// user nice system idle iowait irq softirq steal (guest time is already in user).
			for (int i = 1; i <= 8 && i < f.length; i++) {
				total += Long.parseLong(f[i]);
			}
			return new long[] { (f.length > 8) ? Long.parseLong(f[8]) : 0, total };
		}
		catch (IOException | RuntimeException ex) {
			return new long[] { 0, 0 };
		}
	}

}
