-- One database per service (the postgres profile of docker-compose.yml); each service creates its tables.
CREATE DATABASE auth;
CREATE DATABASE chat;
CREATE DATABASE market;
CREATE DATABASE payment;
CREATE DATABASE push;
CREATE DATABASE admin;
