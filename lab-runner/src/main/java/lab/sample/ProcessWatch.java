package lab.sample;

import lab.launch.Children;

/**
 * A child process the sampler reads from (jstat, psql) and the thread reading it: closing stops the process and waits
 * briefly for the reader to see its end.
 */
record ProcessWatch(Process process, Thread reader) implements AutoCloseable {

	@Override
	public void close() {
		Children.stop(this.process);
		try {
			this.reader.join(2_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
