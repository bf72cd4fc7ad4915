package lab.run;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

import lab.layout.ProgressLine;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Live progress a person can follow, kept apart from result writing: a bar per level with live rps and errors on
 * a terminal, a line every 10 s otherwise (CI logs), and one line per finished level.
 */
final class Progress implements AutoCloseable {

	private final PrintStream out;

	private final ProgressBar bar;

	private final String task;

	private final long startNanos = System.nanoTime();

	private final AtomicLong lastLine = new AtomicLong();

	private volatile String rates = "";

	Progress(PrintStream out, String task, long seconds) {
		this.out = out;
		this.task = task;
		this.bar = (System.console() != null) ? new ProgressBarBuilder().setTaskName(task)
			.setInitialMax(seconds)
			.setUnit(" s", 1)
			.setStyle(ProgressBarStyle.ASCII)
			.setUpdateIntervalMillis(500)
			.continuousUpdate()
			.build() : null;
	}

	/** A progress line of the simulation: the counts of its last second. */
	void accept(ProgressLine line) {
		this.rates = "rps " + line.ok() + ", errors/s " + line.ko();
		long elapsed = (System.nanoTime() - this.startNanos) / 1_000_000_000L;
		if (this.bar != null) {
			this.bar.stepTo(elapsed);
			this.bar.setExtraMessage(" " + this.rates);
		}
		else if (elapsed - this.lastLine.get() >= 10) {
			this.lastLine.set(elapsed);
			this.out.println("  " + this.task + " " + elapsed + " s: " + this.rates);
		}
	}

	@Override
	public void close() {
		if (this.bar != null) {
			this.bar.close();
		}
	}

}
