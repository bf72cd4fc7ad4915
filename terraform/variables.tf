variable "region" {
  description = "AWS region of every resource."
  type        = string
  default     = "eu-west-1"
}

variable "zone" {
  description = "Availability zone letter in the region: every instance goes into <region><zone>, e.g. eu-west-1a."
  type        = string
  default     = "a"

  validation {
    condition     = can(regex("^[a-z]$", var.zone))
    error_message = "zone must be one letter, e.g. \"a\"."
  }
}

variable "owner" {
  description = "Tag Owner on every resource: who to ask before deleting it."
  type        = string
}

variable "operator_cidr" {
  description = "The only network allowed to SSH in, e.g. \"203.0.113.7/32\" (your address). No default: it must be stated."
  type        = string

  validation {
    condition     = try(cidrhost(var.operator_cidr, 0) == split("/", var.operator_cidr)[0], false)
    error_message = "operator_cidr must be a network address in CIDR form (host bits zero, as the AWS provider checks), e.g. \"203.0.113.7/32\"."
  }

  validation {
    # SSH is the only port open to the outside: a /0 or /1 would open it to the internet.
    condition     = try(tonumber(split("/", var.operator_cidr)[1]) >= 16, false)
    error_message = "operator_cidr must be /16 or narrower (your address as /32 is best): a wider block opens SSH to too much of the internet."
  }
}

variable "key_name" {
  description = "Name of an existing EC2 key pair for SSH (the runner drives the injectors over SSH)."
  type        = string
}

variable "instance_types" {
  description = "Instance type per role; the article's topology by default: t2.micro proxy, t2.medium downstream."
  type = object({
    proxy      = string
    downstream = string
    injector   = string
    database   = optional(string, "t3.medium")
  })
  default = {
    proxy      = "t2.micro"
    downstream = "t2.medium"
    injector   = "c5.xlarge"
    database   = "t3.medium"
  }
}

variable "database_set" {
  description = "Services of the database set to deploy (docs/database.md), each on a proxy-type instance of its own, with one PostgreSQL on a database-type instance beside them; none by default."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for s in var.database_set : contains(["app-db-tomcat-loom", "app-db-tomcat-platform", "app-db-webflux-r2dbc", "app-db-webflux-loom"], s)])
    error_message = "database_set must be a subset of app-db-tomcat-loom, app-db-tomcat-platform, app-db-webflux-r2dbc, app-db-webflux-loom."
  }
}

variable "database_pool_size" {
  description = "Connections each service of the database set opens and holds (lab.db.pool-size: HikariCP's maximum-pool-size, r2dbc-pool's initial and max size); PostgreSQL's max_connections is their sum plus 10."
  type        = number
  default     = 10

  validation {
    condition     = var.database_pool_size >= 1 && var.database_pool_size <= 200
    error_message = "database_pool_size must be between 1 and 200."
  }
}

# BEGIN generated from variants.yml by ./lab generate
variable "variants" {
  description = "Proxy variants to deploy, one proxy instance each (the names of the lab's modules)."
  type        = list(string)
  default     = ["app-tomcat-loom", "app-webflux", "app-webflux-loom", "app-tomcat-platform", "app-jetty-loom"]

  validation {
    condition     = length(var.variants) > 0 && alltrue([for v in var.variants : contains(["app-tomcat-loom", "app-webflux", "app-webflux-loom", "app-tomcat-platform", "app-jetty-loom"], v)])
    error_message = "variants must be a non-empty subset of app-tomcat-loom, app-webflux, app-webflux-loom, app-tomcat-platform, app-jetty-loom."
  }
}
# END generated from variants.yml

variable "injector_count" {
  description = "Number of load injector instances; their latency histograms are merged into one report."
  type        = number
  default     = 1

  validation {
    condition     = var.injector_count >= 1 && var.injector_count <= 8
    error_message = "injector_count must be between 1 and 8."
  }
}

variable "t2_cpu_credits" {
  description = "CPU credit mode of t2 instances. \"unlimited\" (default) keeps a t2.micro at full speed for the whole test (billed when above the 10% baseline); \"standard\" throttles it to 10% once its credits run out, which measures the credit balance, not the JVM."
  type        = string
  default     = "unlimited"

  validation {
    condition     = contains(["standard", "unlimited"], var.t2_cpu_credits)
    error_message = "t2_cpu_credits must be \"standard\" or \"unlimited\"."
  }
}

variable "detailed_monitoring" {
  description = "One-minute CloudWatch metrics of every instance (about $0.003 per instance-hour): on by default. The lab samples the JVMs itself; the emulated test turns it off because moto does not implement MonitorInstances."
  type        = bool
  default     = true
}

variable "vpc_cidr" {
  description = "Address range of the lab's VPC."
  type        = string
  default     = "10.42.0.0/16"
}
