output "downstream_url" {
  description = "The downstream, reachable from inside the security group."
  value       = "http://${aws_instance.downstream.private_ip}:7000"
}

output "proxy_urls" {
  description = "Each proxy variant's private URL: pass one to ./lab run --target from an injector."
  value       = { for name, instance in aws_instance.proxy : name => "http://${instance.private_ip}:${local.proxies[name]}" }
}

output "management_urls" {
  description = "Each proxy's health and metrics on a port of its own: pass them to ./lab run --management from an injector."
  value       = { for name, instance in aws_instance.proxy : name => "http://${instance.private_ip}:${local.management_ports[name]}" }
}

output "proxy_public_ips" {
  description = "SSH addresses of the proxies: scp each jar to /opt/lab/ there."
  value       = { for name, instance in aws_instance.proxy : name => instance.public_ip }
}

output "downstream_public_ip" {
  description = "SSH address of the downstream."
  value       = aws_instance.downstream.public_ip
}

output "injector_public_ips" {
  description = "SSH addresses of the injectors: pass them to ./lab run --injectors."
  value       = aws_instance.injector[*].public_ip
}

output "injector_private_ips" {
  description = "Addresses of the injectors inside the VPC: the runner on the first one reaches the others over SSH."
  value       = aws_instance.injector[*].private_ip
}

output "lab_run_commands" {
  description = "What to run on the first injector (ssh -A ubuntu@<first injector_public_ips>), one command per deployed variant."
  value = {
    for name, instance in aws_instance.proxy : name => join(" ", [
      "./lab run --scenario seed --variants ${name}",
      "--target http://${instance.private_ip}:${local.proxies[name]}",
      "--management http://${instance.private_ip}:${local.management_ports[name]}",
      "--downstream http://${aws_instance.downstream.private_ip}:7000",
      "--injectors ${join(",", concat(["local"], [for ip in slice(aws_instance.injector[*].private_ip, 1, length(aws_instance.injector)) : "ubuntu@${ip}"]))}",
    ])
  }
}

output "database_url" {
  description = "The database set's PostgreSQL (JDBC), reachable from inside the security group; null without the set."
  value       = length(aws_instance.database) > 0 ? "jdbc:postgresql://${aws_instance.database[0].private_ip}:5432/lab" : null
}

output "database_public_ip" {
  description = "SSH address of the database set's PostgreSQL (psql as the postgres user there); null without the set."
  value       = length(aws_instance.database) > 0 ? aws_instance.database[0].public_ip : null
}

output "db_service_urls" {
  description = "Each deployed service of the database set: its private URL and its management URL (health, metrics)."
  value = { for name, instance in aws_instance.db_service : name => {
    url        = "http://${instance.private_ip}:${local.db_services[name]}"
    management = "http://${instance.private_ip}:${local.db_services[name] + 1000}"
  } }
}

output "db_service_public_ips" {
  description = "SSH addresses of the database set's services: scp each jar to /opt/lab/ there."
  value       = { for name, instance in aws_instance.db_service : name => instance.public_ip }
}

output "site" {
  description = "Where the lab runs, as ./lab aws run records it in the run's manifest."
  value = {
    region             = var.region
    zone               = var.zone
    instance_types     = var.instance_types
    injector_count     = var.injector_count
    t2_cpu_credits     = var.t2_cpu_credits
    database_set       = var.database_set
    database_pool_size = var.database_pool_size
  }
}
