package lab.generate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import lab.plan.Variant;

/**
 * The parts of the repository's other files that list the variants, generated from the one list of them
 * ({@code variants.yml}): Compose's services, Prometheus's targets, Terraform's ports and defaults, the README's
 * table. Each part sits between a line holding {@link #BEGIN} and one holding {@link #END}; {@code ./lab generate}
 * rewrites them and the deploy checks fail while one is out of date. A new variant is then a module, its entry in
 * {@code variants.yml} and its line in the root POM's module list.
 */
public final class VariantFiles {

	public static final String BEGIN = "BEGIN generated from variants.yml by ./lab generate";

	public static final String END = "END generated from variants.yml";

	/** One generated part: the file, relative to the repository's root, and its text from the variants. */
	public record Part(String file, Function<List<Variant>, String> text) {
	}

	public static final List<Part> PARTS = List.of(
			new Part("docker-compose.yml", variants -> join(variants, VariantFiles::composeService, "\n")),
			new Part("prometheus/prometheus.yml", variants -> join(variants, v -> "          - " + v.name() + ":" + v.managementPort() + "\n", "")),
			new Part("terraform/main.tf", VariantFiles::terraformPorts),
			new Part("terraform/variables.tf", VariantFiles::terraformVariable),
			new Part("terraform/terraform.tfvars.example", variants -> "variants       = " + hclList(variants) + "\n"),
			new Part("README.md", variants -> "| variant | model | port |\n|---|---|---|\n"
					+ join(variants, v -> "| `" + v.name() + "` | " + v.model() + " | " + v.port() + " |\n", "")
					+ "| `" + Variant.DOWNSTREAM + "` | answers after `delayMs` (bare Netty, 0.02 ms CPU per request); never the bottleneck | 7000 |\n"));

	private VariantFiles() {
	}

	/** The files whose generated parts differ from what the variants give, by path relative to {@code root}. */
	public static List<String> stale(Path root, List<Variant> variants) {
		return List.copyOf(rendered(root, variants).keySet());
	}

	/** Rewrites every generated part; returns the files it changed. */
	public static List<String> write(Path root, List<Variant> variants) {
		Map<String, String> changed = rendered(root, variants);
		changed.forEach((file, text) -> {
			try {
				Files.writeString(root.resolve(file), text);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
		return List.copyOf(changed.keySet());
	}

	/** Each file whose generated part differs from what the variants give, with its text as they give it. */
	private static Map<String, String> rendered(Path root, List<Variant> variants) {
		Map<String, String> changed = new LinkedHashMap<>();
		for (Part part : PARTS) {
			String text = read(root.resolve(part.file()));
			String rendered = render(part, text, variants);
			if (!text.equals(rendered)) {
				changed.put(part.file(), rendered);
			}
		}
		return changed;
	}

	/** {@code text} with the lines between its markers replaced by the part's text. */
	static String render(Part part, String text, List<Variant> variants) {
		int begin = text.indexOf(BEGIN);
		int end = text.indexOf(END);
		if (begin < 0 || end < begin) {
			throw new IllegalStateException(part.file() + " has no generated part: it needs a line holding '" + BEGIN
					+ "' and, after it, one holding '" + END + "'");
		}
		int from = text.indexOf('\n', begin) + 1;
		int to = text.lastIndexOf('\n', end) + 1;
		return text.substring(0, from) + part.text().apply(variants) + text.substring(to);
	}

	private static String composeService(Variant v) {
		return """
				  %1$s:
				    build:
				      context: .
				      dockerfile: docker/Dockerfile
				      args:
				        BUILD_IMAGE: ${LAB_BUILD_IMAGE:-maven:3.9-eclipse-temurin-25}
				        RUN_IMAGE: ${LAB_RUN_IMAGE:-eclipse-temurin:25-jre}
				        MODULE: %1$s
				    image: loom-lab/%1$s
				    environment:
				      SERVER_PORT: "%2$d"
				      MANAGEMENT_SERVER_PORT: "%4$d"   # health and metrics apart from the requests' queue
				      LAB_DOWNSTREAM_BASE_URL: http://downstream-delay-service:7000
				    ports: ["${LAB_BIND_ADDRESS:-127.0.0.1}:${LAB_%3$s_PORT:-%2$d}:%2$d", "${LAB_BIND_ADDRESS:-127.0.0.1}:${LAB_%3$s_MANAGEMENT_PORT:-%4$d}:%4$d"]
				    depends_on:
				      downstream-delay-service:
				        condition: service_healthy
				    cpus: 1.0              # t2.micro: 1 vCPU
				    mem_limit: 1g          # t2.micro: 1 GiB
				    memswap_limit: 1g      # memory and swap both 1 GiB: no swap
				    ulimits:
				      nofile:
				        soft: ${LAB_NOFILE:-65536}
				        hard: ${LAB_NOFILE:-65536}
				      nproc: ${LAB_NPROC:-65535}
				""".formatted(v.name(), v.port(), v.envName(), v.managementPort());
	}

	/** The proxies' lines of Terraform's port map, aligned as {@code terraform fmt} aligns them (the markers end a group). */
	private static String terraformPorts(List<Variant> variants) {
		int width = variants.stream().mapToInt(v -> v.name().length()).max().orElse(0) + 2;
		return join(variants, v -> "    " + padded("\"" + v.name() + "\"", width) + " = " + v.port() + "\n", "");
	}

	private static String terraformVariable(List<Variant> variants) {
		String names = variants.stream().map(Variant::name).collect(Collectors.joining(", "));
		return """
				variable "variants" {
				  description = "Proxy variants to deploy, one proxy instance each (the names of the lab's modules)."
				  type        = list(string)
				  default     = %1$s

				  validation {
				    condition     = length(var.variants) > 0 && alltrue([for v in var.variants : contains(%1$s, v)])
				    error_message = "variants must be a non-empty subset of %2$s."
				  }
				}
				""".formatted(hclList(variants), names);
	}

	private static String hclList(List<Variant> variants) {
		return variants.stream().map(v -> "\"" + v.name() + "\"").collect(Collectors.joining(", ", "[", "]"));
	}

	private static String padded(String text, int width) {
		return text + " ".repeat(Math.max(0, width - text.length()));
	}

	private static String join(List<Variant> variants, Function<Variant, String> each, String between) {
		return variants.stream().map(each).collect(Collectors.joining(between));
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
		}
	}

}
