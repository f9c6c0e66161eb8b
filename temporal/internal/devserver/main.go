// Command devserver runs an all-in-one Temporal server for rolegen's tests
// and examples: frontend, history, matching and worker services in one
// process, on loopback ports, over SQLite (in memory, or in a file with
// -db). It prints "ready HOST:PORT" on standard output when the frontend
// serves, and stops when its standard input closes (so it never outlives
// the process that started it) or on SIGINT/SIGTERM.
//
// It is a module of its own so that the adapter module, and its users,
// carry none of the server's dependencies; the adapter's tests build it
// with the go command (see package testserver).
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/membership/static"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

const host = "127.0.0.1"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
}

func run() error {
	namespace := flag.String("namespace", "default", "namespace to create")
	port := flag.Int("port", 0, "frontend gRPC port (0: a free one)")
	db := flag.String("db", "", "SQLite file (default: in memory)")
	logLevel := flag.String("log", "", "server log level (debug, info, warn, error; default: none)")
	flag.Parse()

	ports, err := freePorts(6)
	if err != nil {
		return err
	}
	if *port != 0 {
		ports[0] = *port
	}
	frontend, frontendHTTP := ports[0], ports[1]
	address := net.JoinHostPort(host, strconv.Itoa(frontend))

	sqlConf := config.SQL{PluginName: sqliteplugin.PluginName}
	if *db == "" {
		sqlConf.ConnectAttributes = map[string]string{"mode": "memory", "cache": "shared"}
		sqlConf.DatabaseName = "rolegen-" + strconv.FormatUint(rand.Uint64(), 36)
	} else {
		sqlConf.ConnectAttributes = map[string]string{"mode": "rwc"}
		sqlConf.DatabaseName = *db
		if _, err := os.Stat(*db); os.IsNotExist(err) {
			if err := sqliteschema.SetupSchema(&sqlConf); err != nil {
				return fmt.Errorf("setting up the schema: %w", err)
			}
		}
	}
	ns, err := sqliteschema.NewNamespaceConfig("active", *namespace, false, nil)
	if err != nil {
		return err
	}
	if err := sqliteschema.CreateNamespaces(&sqlConf, ns); err != nil {
		return fmt.Errorf("creating namespace %q: %w", *namespace, err)
	}

	var conf config.Config
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = host
	conf.Persistence.DefaultStore = "sqlite"
	conf.Persistence.VisibilityStore = "sqlite"
	conf.Persistence.NumHistoryShards = 1
	conf.Persistence.DataStores = map[string]config.DataStore{"sqlite": {SQL: &sqlConf}}
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        "active",
		CurrentClusterName:       "active",
		ClusterInformation: map[string]cluster.ClusterInformation{
			"active": {
				Enabled:                true,
				InitialFailoverVersion: 1,
				RPCAddress:             address,
				HTTPAddress:            net.JoinHostPort(host, strconv.Itoa(frontendHTTP)),
				ClusterID:              "rolegen-dev",
			},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	service := func(grpcPort, httpPort int) config.Service {
		var s config.Service
		s.RPC.GRPCPort = grpcPort
		s.RPC.HTTPPort = httpPort
		s.RPC.BindOnIP = host
		return s
	}
	conf.Services = map[string]config.Service{
		"frontend": service(frontend, frontendHTTP),
		"history":  service(ports[2], 0),
		"matching": service(ports[3], 0),
		"worker":   service(ports[4], 0),
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = address

	hosts := map[primitives.ServiceName]static.Hosts{}
	for name, svc := range map[primitives.ServiceName]string{
		primitives.FrontendService: "frontend",
		primitives.HistoryService:  "history",
		primitives.MatchingService: "matching",
		primitives.WorkerService:   "worker",
	} {
		hosts[name] = static.SingleLocalHost(net.JoinHostPort(host, strconv.Itoa(conf.Services[svc].RPC.GRPCPort)))
	}

	var logger log.Logger = log.NewNoopLogger()
	if *logLevel != "" {
		logger = log.NewZapLogger(log.BuildZapLogger(log.Config{Level: *logLevel}))
	}
	dyn := dynamicconfig.StaticClient{
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key():                 8096,
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
	}
	server, err := temporal.NewServer(
		temporal.WithConfig(&conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(hosts),
		temporal.WithLogger(logger),
		temporal.WithDynamicConfigClient(dyn),
	)
	if err != nil {
		return err
	}
	if err := server.Start(); err != nil {
		return err
	}
	defer server.Stop()
	fmt.Printf("ready %s\n", address)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stdinClosed)
	}()
	select {
	case <-stop:
	case <-stdinClosed:
	}
	return nil
}

// freePorts returns n distinct free loopback ports, holding every listener
// until all are chosen so that no two are the same.
func freePorts(n int) ([]int, error) {
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports, nil
}
