import net from 'node:net'

/**
 * A TCP proxy on loopback between the app and its PostgreSQL, for outage tests: `cut()` destroys
 * every open connection and stops listening (new connections are refused, as when a database
 * server is down); `restore()` listens again on the same port; `stall()` stops passing bytes
 * without closing anything (a network that drops every packet): whatever waits for an answer hangs.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>()
  let server: net.Server | null = null
  let port = 0
  let stalled = false
  const stop = (socket: net.Socket) => {
    socket.unpipe()
    socket.pause()
  }

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host)
        sockets.add(client)
        sockets.add(upstream)
        const drop = () => {
          client.destroy()
          upstream.destroy()
          sockets.delete(client)
          sockets.delete(upstream)
        }
        client.on('error', drop).on('close', drop)
        upstream.on('error', drop).on('close', drop)
        if (stalled) {
          stop(client)
          return
        }
        client.pipe(upstream)
        upstream.pipe(client)
      })
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => {
        next.off('error', reject)
        const address = next.address()
        if (typeof address === 'object' && address) port = address.port
        server = next
        resolve()
      })
    })

  await listen()

  return {
    get port() {
      return port
    },
    /** How many connections pass through now (both sides of each). */
    get openConnections() {
      return sockets.size / 2
    },
    async cut() {
      const closing = server
      server = null
      const closed = closing ? new Promise<void>((resolve) => closing.close(() => resolve())) : null
      // RST rather than FIN: the app sees what a killed server or a broken network gives.
      for (const socket of sockets) socket.resetAndDestroy()
      sockets.clear()
      await closed
    },
    stall() {
      stalled = true
      for (const socket of sockets) stop(socket)
    },
    async restore() {
      stalled = false
      if (!server) await listen()
    },
    async close() {
      await this.cut()
    },
  }
}
