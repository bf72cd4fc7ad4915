package lab.analyse.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lab.layout.LevelDir;
import lab.load.LoadWindow;

/**
 * An injector's own account of its CPU, from its {@code cpu.csv} (per second: the JVM's CPU seconds so far and
 * the host's processors): how busy an injector on another host was, where /proc cannot be read.
 */
public record InjectorCpu(TimeSeries cpuSeconds, int processors) {

	static InjectorCpu read(Path dir) throws IOException {
		Path csv = dir.resolve(LevelDir.INJECTOR_CPU);
		List<TimeSeries.Sample> samples = new ArrayList<>();
		int processors = 0;
		if (Files.isRegularFile(csv)) {
			List<String> lines = Files.readAllLines(csv);
			for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
				String[] f = line.split(",");
				try {
					samples.add(new TimeSeries.Sample(Long.parseLong(f[0]), Double.parseDouble(f[1])));
					processors = Integer.parseInt(f[2]);
				}
				catch (RuntimeException ex) {
					// a line cut short by an interrupted run: skipped
				}
			}
		}
		return new InjectorCpu(new TimeSeries(samples), processors);
	}

	/** CPU seconds per second (1.0 = one core) in the window; NaN without two samples in it. */
	public double ratePerSecond(LoadWindow window) {
		return CounterDelta.ratePerSecond(this.cpuSeconds.clipTo(window));
	}

}
