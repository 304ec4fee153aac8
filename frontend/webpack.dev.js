// Dev server on :3000; the gateway (http://127.0.0.1:8080) answers /api, /config.json and /socket.io.
import { commonConfig } from './webpack.common.js';

const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const common = commonConfig({ production: false });

export default {
  ...common,
  mode: 'development',
  devtool: 'eval-cheap-module-source-map',
  module: {
    rules: [...common.module.rules, { test: /\.css$/, use: ['style-loader', 'css-loader'] }],
  },
  devServer: {
    port: 3000,
    host: '127.0.0.1',
    historyApiFallback: true,
    hot: true,
    proxy: [
      { context: ['/api', '/config.json'], target: gateway, changeOrigin: true },
      { context: ['/socket.io'], target: gateway, ws: true, changeOrigin: true },
    ],
  },
};
