package lab.plan;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TuningTests {

	@Test
	void everyBundledTuningParsesAndNamesOnlyKnownVariants() {
		for (String name : Tuning.bundledNames()) {
			Tuning tuning = Tuning.load(name);
			assertThat(tuning.name()).isEqualTo(name);
			assertThat(Variant.names()).containsAll(tuning.variants().keySet());
		}
	}

	@Test
	void defaultAddsNothingAndKeepsTheModuleName() {
		Tuning tuning = Tuning.load("default");
		for (String variant : Variant.names()) {
			assertThat(tuning.jvmFlags(variant, 25)).isEmpty();
			assertThat(tuning.arguments(variant)).isEmpty();
			assertThat(tuning.label(variant)).isEqualTo(variant);
		}
	}

	@Test
	void tunedGivesEveryVariantTheSameHeapShareAndTheBlockingClientsTheSameBuffer() {
		Tuning tuned = Tuning.load("tuned");
		for (String variant : Variant.names()) {
			assertThat(tuned.jvmFlags(variant, 21)).as(variant).contains("-XX:MaxRAMPercentage=68");
			assertThat(tuned.label(variant)).isEqualTo(variant + ".tuned");
		}
		for (String blocking : List.of("app-tomcat-loom", "app-tomcat-platform", "app-webflux-loom", "app-jetty-loom")) {
			assertThat(tuned.properties(blocking)).as(blocking).containsEntry("lab.downstream.buffer-size", "256B")
				.containsEntry("lab.downstream.content-compression", "false")
				.containsEntry("spring.http.clients.redirects", "dont-follow");
		}
		assertThat(tuned.properties("app-tomcat-loom")).isEqualTo(tuned.properties("app-tomcat-platform"));
		assertThat(tuned.properties("app-webflux")).containsEntry("spring.http.clients.redirects", "dont-follow");
		assertThat(tuned.arguments("app-tomcat-loom")).contains("--lab.tomcat.socket-buffer-size=512B");
		assertThat(Variant.moduleOf("app-tomcat-loom.tuned")).isEqualTo("app-tomcat-loom");
		assertThat(Variants.LAB.modelOf("app-tomcat-loom.tuned")).startsWith("Spring MVC on Tomcat").endsWith("; tuning tuned");
		// With several JDKs the label names the JDK too: the verdict says which is which.
		assertThat(Variants.LAB.modelOf("app-tomcat-loom.jdk21")).startsWith("Spring MVC on Tomcat").endsWith("; JDK 21").doesNotContain("tuning");
		assertThat(Variants.LAB.modelOf("app-tomcat-loom.tuned-jdk25")).endsWith("; tuning tuned; JDK 25");
	}

	@Test
	void leanObservationIsATuningOnTopOfEachOtherLabelledAsSuch() {
		Tuning lean = Tuning.load("default").observed(Observe.LEAN);
		assertThat(lean.label("app-webflux")).isEqualTo("app-webflux.lean");
		assertThat(lean.arguments("app-tomcat-loom")).containsExactly("--management.observations.enable.http=false");
		Tuning tunedLean = Tuning.load("tuned").observed(Observe.LEAN);
		assertThat(tunedLean.label("app-tomcat-loom")).isEqualTo("app-tomcat-loom.tuned-lean");
		assertThat(tunedLean.properties("app-tomcat-loom")).containsEntry("management.observations.enable.http", "false")
			.containsEntry("lab.tomcat.socket-buffer-size", "512B");
		assertThat(tunedLean.jvmFlags("app-webflux", 21)).containsExactly("-XX:MaxRAMPercentage=68", "-Dreactor.netty.ioSelectCount=1");
		assertThat(Tuning.load("tuned").observed(Observe.FULL)).isEqualTo(Tuning.load("tuned"));
		assertThatThrownBy(() -> Observe.of("verbose")).isInstanceOf(PlanException.class)
			.hasMessage("unknown observe mode 'verbose': use lean or full (or both: lean,full)");
	}

	@Test
	void flagsForNewerJdksReachOnlyThoseJdks() {
		Tuning tuning = parse("name: x\nall:\n  jvm: [-Xss512k]\n  jvmFromJdk:\n    25: [-XX:+UseCompactObjectHeaders]\n"
				+ "variants:\n  app-webflux:\n    jvmFromJdk:\n      24: [-XX:+Foo]\n");
		assertThat(tuning.jvmFlags("app-webflux", 21)).containsExactly("-Xss512k");
		assertThat(tuning.jvmFlags("app-webflux", 24)).containsExactly("-Xss512k", "-XX:+Foo");
		assertThat(tuning.jvmFlags("app-webflux", 25)).containsExactly("-Xss512k", "-XX:+UseCompactObjectHeaders", "-XX:+Foo");
		assertThat(tuning.jvmFlags("app-tomcat-loom", 25)).containsExactly("-Xss512k", "-XX:+UseCompactObjectHeaders");
		// A JDK whose version could not be read gets only the flags every JDK takes.
		assertThat(tuning.jvmFlags("app-tomcat-loom", 0)).containsExactly("-Xss512k");
		assertThatThrownBy(() -> parse("name: x\nall:\n  jvmFromJdk:\n    17: [-XX:+UseZGC]\n")).isInstanceOf(PlanException.class)
			.hasMessageContaining("jvmFromJdk 17: the services need JDK 21 or newer");
		assertThatThrownBy(() -> parse("name: x\nall:\n  jvmFromJdk:\n    25: [UseZGC]\n")).isInstanceOf(PlanException.class)
			.hasMessageContaining("JVM flag 'UseZGC' must start with '-'");
	}

	@Test
	void aBadTuningFileIsOneLineNamingTheProblem() {
		assertThatThrownBy(() -> parse("name: x\nvariants:\n  app-nope:\n    jvm: [-Xmx1g]\n"))
			.isInstanceOf(PlanException.class)
			.hasMessage("test.yml: unknown variant 'app-nope': valid variants are " + String.join(", ", Variant.names()));
		assertThatThrownBy(() -> parse("name: x\nall:\n  jvm: [Xmx1g]\n")).hasMessage("test.yml: JVM flag 'Xmx1g' must start with '-'");
		assertThatThrownBy(() -> parse("name: x\nflags: []\n")).hasMessageStartingWith("test.yml: unknown field 'flags'");
		assertThatThrownBy(() -> Tuning.load("fast")).isInstanceOf(PlanException.class)
			.hasMessage("unknown tuning 'fast': use one of carriers-loops, default, heap-fixed, pollers, tuned, or the path of a tuning file");
	}

	private static Tuning parse(String yaml) {
		return Tuning.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "test.yml");
	}

}
