# The article's topology on AWS: one t2.micro proxy per variant, a t2.medium downstream, and injector(s),
# all in one subnet; service and management ports open only inside the security group, SSH only from operator_cidr.

locals {
  service_ports = {
    "downstream-delay-service" = 7000
    # BEGIN generated from variants.yml by ./lab generate
    "app-tomcat-loom"     = 8080
    "app-webflux"         = 8081
    "app-webflux-loom"    = 8082
    "app-tomcat-platform" = 8083
    "app-jetty-loom"      = 8084
    # END generated from variants.yml
  }
  proxies = { for v in var.variants : v => local.service_ports[v] }
  # Each proxy's health and metrics on a port of its own (its service port + 1000, as in Compose): the runner's scrapes
  # never wait behind requests for a thread (the platform pool's 200 are all busy at 1,000+ users).
  management_ports = { for v, port in local.proxies : v => port + 1000 }
  # Every variant's management port, deployed or not: the security group's range does not change with var.variants.
  all_management_ports = [for name, port in local.service_ports : port + 1000 if name != "downstream-delay-service"]
  # The database set (docs/database.md): each of its services on a t2.micro of its own (the ports their application.yml
  # give them, management + 1000), reading one PostgreSQL on an instance of its own. None by default.
  db_service_ports = {
    "app-db-tomcat-loom"     = 8085
    "app-db-tomcat-platform" = 8086
    "app-db-webflux-r2dbc"   = 8087
    "app-db-webflux-loom"    = 8088
  }
  db_services = { for s in var.database_set : s => local.db_service_ports[s] }
  # Every service's pool held at once, and PostgreSQL's own reserve (superuser connections, psql by hand).
  db_max_connections = var.database_pool_size * length(var.database_set) + 10
  # Opened in the group only when the set is deployed: PostgreSQL, then the set's service and management ports.
  db_ingress = length(var.database_set) == 0 ? {} : {
    "PostgreSQL of the database set, only between the lab instances"                             = [5432, 5432]
    "Service ports of the database set, only between the lab instances"                          = [min(values(local.db_service_ports)...), max(values(local.db_service_ports)...)]
    "Management ports of the database set (service port + 1000), only between the lab instances" = [min(values(local.db_service_ports)...) + 1000, max(values(local.db_service_ports)...) + 1000]
  }
}

# One zone, named: every instance in it (one network hop between them), and the set never grows by itself.
data "aws_availability_zones" "available" {
  state = "available"

  filter {
    name   = "zone-name"
    values = ["${var.region}${var.zone}"]
  }
}

# Ubuntu 24.04 LTS, the newest image published by Canonical.
data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*"]
  }
}

resource "aws_vpc" "lab" {
  #checkov:skip=CKV2_AWS_11:A short-lived benchmark VPC holding only the lab's own traffic; flow logs would cost more than the experiment.
  cidr_block           = var.vpc_cidr
  enable_dns_hostnames = true

  tags = { Name = "loom-lab" }
}

# No rules: nothing may use the default security group.
resource "aws_default_security_group" "closed" {
  vpc_id = aws_vpc.lab.id
}

resource "aws_internet_gateway" "lab" {
  vpc_id = aws_vpc.lab.id
}

resource "aws_subnet" "lab" {
  #checkov:skip=CKV_AWS_130:The operator reaches the instances over SSH (from operator_cidr only) and they install packages; no NAT gateway for a one-hour benchmark.
  vpc_id                  = aws_vpc.lab.id
  cidr_block              = cidrsubnet(var.vpc_cidr, 8, 1)
  availability_zone       = data.aws_availability_zones.available.names[0]
  map_public_ip_on_launch = true

  tags = { Name = "loom-lab" }
}

resource "aws_route_table" "lab" {
  vpc_id = aws_vpc.lab.id

  route {
    cidr_block = "0.0.0.0/0"
    gateway_id = aws_internet_gateway.lab.id
  }
}

resource "aws_route_table_association" "lab" {
  subnet_id      = aws_subnet.lab.id
  route_table_id = aws_route_table.lab.id
}

resource "aws_security_group" "lab" {
  name        = "loom-lab"
  description = "Loom lab: service ports inside the group, SSH from the operator"
  vpc_id      = aws_vpc.lab.id

  ingress {
    description = "SSH from the operator only"
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = [var.operator_cidr]
  }

  ingress {
    # The runner on injector 1 drives the other injectors with the operator's forwarded agent; no key is stored on an
    # instance. (The EC2 API allows no apostrophe in a description: the provider refuses it before any call.)
    description = "SSH between the lab instances: injector 1 drives the other injectors"
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    self        = true
  }

  ingress {
    description = "Service ports (downstream 7000, the proxies above it), only between the lab instances"
    from_port   = 7000
    to_port     = max(values(local.service_ports)...)
    protocol    = "tcp"
    self        = true
  }

  ingress {
    description = "Management ports of the proxies (health, metrics: service port + 1000), only between the lab instances"
    from_port   = min(local.all_management_ports...)
    to_port     = max(local.all_management_ports...)
    protocol    = "tcp"
    self        = true
  }

  dynamic "ingress" {
    for_each = local.db_ingress
    content {
      description = ingress.key
      from_port   = ingress.value[0]
      to_port     = ingress.value[1]
      protocol    = "tcp"
      self        = true
    }
  }

  egress {
    #checkov:skip=CKV_AWS_382:Instances install the Java runtime and packages from public repositories at boot.
    description = "Package downloads at boot"
    from_port   = 0
    to_port     = 0
    protocol    = "-1"
    cidr_blocks = ["0.0.0.0/0"]
  }
}

resource "aws_instance" "downstream" {
  #checkov:skip=CKV2_AWS_41:The services call no AWS API; an instance profile would only widen the blast radius.
  ami                    = data.aws_ami.ubuntu.id
  instance_type          = var.instance_types.downstream
  subnet_id              = aws_subnet.lab.id
  vpc_security_group_ids = [aws_security_group.lab.id]
  key_name               = var.key_name
  monitoring             = var.detailed_monitoring
  ebs_optimized          = false #checkov:skip=CKV_AWS_135:t2 instance types do not support EBS optimisation.
  user_data = templatefile("${path.module}/templates/service.sh.tftpl", {
    module  = "downstream-delay-service"
    port    = local.service_ports["downstream-delay-service"]
    args    = ""
    jvmopts = ""
  })

  credit_specification {
    cpu_credits = var.t2_cpu_credits
  }

  metadata_options {
    http_endpoint = "enabled"
    http_tokens   = "required"
  }

  root_block_device {
    encrypted   = true
    volume_type = "gp3"
    volume_size = 16
  }

  tags = { Name = "loom-lab-downstream", Role = "downstream" }

  # User data installs packages at first boot: the route out must exist before the instance starts.
  depends_on = [aws_route_table_association.lab]

  lifecycle {
    # A newer Ubuntu image appears every few weeks: it is used by new instances, never replaces running ones.
    ignore_changes = [ami]
  }
}

resource "aws_instance" "proxy" {
  #checkov:skip=CKV2_AWS_41:The services call no AWS API; an instance profile would only widen the blast radius.
  for_each               = local.proxies
  ami                    = data.aws_ami.ubuntu.id
  instance_type          = var.instance_types.proxy
  subnet_id              = aws_subnet.lab.id
  vpc_security_group_ids = [aws_security_group.lab.id]
  key_name               = var.key_name
  monitoring             = var.detailed_monitoring
  ebs_optimized          = false #checkov:skip=CKV_AWS_135:t2 instance types do not support EBS optimisation.
  user_data = templatefile("${path.module}/templates/service.sh.tftpl", {
    module = each.key
    port   = each.value
    args   = "--management.server.port=${local.management_ports[each.key]} --lab.downstream.base-url=http://${aws_instance.downstream.private_ip}:7000"
    # No heap flags: on a real t2.micro the JVM's ergonomics pick heap and GC, as the t2-micro profile emulates.
    jvmopts = ""
  })

  credit_specification {
    cpu_credits = var.t2_cpu_credits
  }

  metadata_options {
    http_endpoint = "enabled"
    http_tokens   = "required"
  }

  root_block_device {
    encrypted   = true
    volume_type = "gp3"
    volume_size = 16
  }

  tags = { Name = "loom-lab-${each.key}", Role = "proxy", Variant = each.key }

  # The downstream's address is baked into the user data: a new downstream replaces the proxies on purpose.
  user_data_replace_on_change = true

  depends_on = [aws_route_table_association.lab]

  lifecycle {
    ignore_changes = [ami]
  }
}

resource "aws_instance" "injector" {
  #checkov:skip=CKV2_AWS_41:The injectors call no AWS API; an instance profile would only widen the blast radius.
  count                  = var.injector_count
  ami                    = data.aws_ami.ubuntu.id
  instance_type          = var.instance_types.injector
  subnet_id              = aws_subnet.lab.id
  vpc_security_group_ids = [aws_security_group.lab.id]
  key_name               = var.key_name
  monitoring             = var.detailed_monitoring
  ebs_optimized          = true
  user_data              = templatefile("${path.module}/templates/injector.sh.tftpl", {})

  metadata_options {
    http_endpoint = "enabled"
    http_tokens   = "required"
  }

  root_block_device {
    encrypted   = true
    volume_type = "gp3"
    volume_size = 30
  }

  tags = { Name = "loom-lab-injector-${count.index}", Role = "injector" }

  depends_on = [aws_route_table_association.lab]

  lifecycle {
    ignore_changes = [ami]
  }
}

# The database set's PostgreSQL, on an instance of its own: the services' waits are its backends', not their own cores'.
resource "aws_instance" "database" {
  #checkov:skip=CKV2_AWS_41:The database calls no AWS API; an instance profile would only widen the blast radius.
  count                  = length(var.database_set) > 0 ? 1 : 0
  ami                    = data.aws_ami.ubuntu.id
  instance_type          = var.instance_types.database
  subnet_id              = aws_subnet.lab.id
  vpc_security_group_ids = [aws_security_group.lab.id]
  key_name               = var.key_name
  monitoring             = var.detailed_monitoring
  ebs_optimized          = true
  user_data = templatefile("${path.module}/templates/database.sh.tftpl", {
    subnet_cidr     = aws_subnet.lab.cidr_block
    max_connections = local.db_max_connections
  })

  metadata_options {
    http_endpoint = "enabled"
    http_tokens   = "required"
  }

  root_block_device {
    encrypted   = true
    volume_type = "gp3"
    volume_size = 16
  }

  tags = { Name = "loom-lab-database", Role = "database" }

  depends_on = [aws_route_table_association.lab]

  lifecycle {
    ignore_changes = [ami]
  }
}

# Each service of the database set, as a proxy is deployed: its jar by scp, then systemctl start.
resource "aws_instance" "db_service" {
  #checkov:skip=CKV2_AWS_41:The services call no AWS API; an instance profile would only widen the blast radius.
  for_each               = local.db_services
  ami                    = data.aws_ami.ubuntu.id
  instance_type          = var.instance_types.proxy
  subnet_id              = aws_subnet.lab.id
  vpc_security_group_ids = [aws_security_group.lab.id]
  key_name               = var.key_name
  monitoring             = var.detailed_monitoring
  ebs_optimized          = false #checkov:skip=CKV_AWS_135:t2 instance types do not support EBS optimisation.
  user_data = templatefile("${path.module}/templates/service.sh.tftpl", {
    module  = each.key
    port    = each.value
    args    = "--management.server.port=${each.value + 1000} --lab.db.host=${aws_instance.database[0].private_ip} --lab.db.pool-size=${var.database_pool_size}"
    jvmopts = ""
  })

  credit_specification {
    cpu_credits = var.t2_cpu_credits
  }

  metadata_options {
    http_endpoint = "enabled"
    http_tokens   = "required"
  }

  root_block_device {
    encrypted   = true
    volume_type = "gp3"
    volume_size = 16
  }

  tags = { Name = "loom-lab-${each.key}", Role = "db-service", Variant = each.key }

  # The database's address is baked into the user data: a new database replaces the set's services on purpose.
  user_data_replace_on_change = true

  depends_on = [aws_route_table_association.lab]

  lifecycle {
    ignore_changes = [ami]
  }
}
