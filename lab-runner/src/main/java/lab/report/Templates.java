package lab.report;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.MustacheFactory;

/** The report's Mustache templates ({@code src/main/resources/templates}): HTML escaped, Markdown as it is. */
final class Templates {

	private static final MustacheFactory HTML = new DefaultMustacheFactory("templates");

	/** Markdown is not HTML: values go in as they are. */
	private static final MustacheFactory MARKDOWN = new DefaultMustacheFactory("templates") {
		@Override
		public void encode(String value, Writer writer) {
			try {
				writer.write(value);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	};

	private Templates() {
	}

	/** Renders {@code template} with {@code scope} into {@code file}; a {@code .md} template is not HTML-escaped. */
	static void render(String template, Map<String, Object> scope, Path file) throws IOException {
		MustacheFactory factory = template.endsWith(".md.mustache") ? MARKDOWN : HTML;
		StringWriter text = new StringWriter();
		factory.compile(template).execute(text, scope);
		Files.writeString(file, text.toString());
	}

}
