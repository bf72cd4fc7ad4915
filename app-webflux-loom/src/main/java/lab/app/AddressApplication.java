package lab.app;

import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

import lab.common.DownstreamProperties;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

@SpringBootApplication
public class AddressApplication {

	public static void main(String[] args) {
		SpringApplication.run(AddressApplication.class, args);
	}

	/** Blocking client, the same on every blocking variant: Spring Boot's builder, configured in service-common. */
	@Bean
	RestClient downstream(RestClient.Builder builder, DownstreamProperties properties) {
		return builder.baseUrl(properties.baseUrl()).build();
	}

	/**
	 * ONE scheduler for the whole application, a new virtual thread per task; never an executor per request. How it
	 * starts that thread is {@code lab.webflux.virtual-threads}: {@code executor-service} (the default, the common
	 * idiom) wraps {@code Executors.newVirtualThreadPerTaskExecutor()}, which wraps every task in a {@code Future} and
	 * keeps every running thread in a set so it can shut them down; {@code thread-builder} starts the thread straight
	 * from {@code Thread.ofVirtual()}, as Tomcat's virtual-thread executor does: no per-task future, no tracking set,
	 * four fewer frames on every parked thread's stack.
	 */
	@Bean(destroyMethod = "dispose")
	Scheduler virtualThreads(@Value("${lab.webflux.virtual-threads:executor-service}") VirtualThreads how) {
		return switch (how) {
			case EXECUTOR_SERVICE -> Schedulers.fromExecutorService(Executors.newVirtualThreadPerTaskExecutor(), "virtual-threads");
			case THREAD_BUILDER -> {
				ThreadFactory factory = Thread.ofVirtual().factory();
				yield Schedulers.fromExecutor(task -> factory.newThread(task).start());
			}
		};
	}

	/** The values of {@code lab.webflux.virtual-threads}. */
	enum VirtualThreads {

		EXECUTOR_SERVICE, THREAD_BUILDER

	}

}
