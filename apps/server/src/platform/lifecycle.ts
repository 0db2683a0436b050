/** Whether this process is shutting down: it then answers /readyz with 503 and takes no new sockets. */
export class Lifecycle {
  stopping = false;
}
