package lab.plan;

import java.net.URI;
import java.util.Optional;

/**
 * Where a process the run measures or calls comes from: started here by the runner (pinned, sampled from
 * {@code /proc}, its JVM reachable by jcmd), or already running and reached at a URL ({@code --target},
 * {@code --downstream}: not started, not pinned, sampled over HTTP).
 */
public sealed interface ServiceSource {

	/** The runner starts it. */
	ServiceSource STARTED_HERE = new StartedHere();

	record StartedHere() implements ServiceSource {

	}

	/** Already running at {@code url}. */
	record ReachedAt(URI url) implements ServiceSource {

	}

	/** The source a base URL option gives: reached at it, or started here when the option is absent. */
	static ServiceSource of(URI url) {
		return (url != null) ? new ReachedAt(url) : STARTED_HERE;
	}

	default boolean startedHere() {
		return this instanceof StartedHere;
	}

	/** The URL it is reached at; empty when the runner starts it. */
	default Optional<URI> reachedAt() {
		return (this instanceof ReachedAt reached) ? Optional.of(reached.url()) : Optional.empty();
	}

}
