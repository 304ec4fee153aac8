import * as Tooltip from '@radix-ui/react-tooltip';
import { RefreshCw, Wifi, WifiOff } from 'lucide-react';
import { currentSocket } from '@/api/socket';
import { useAppSelector } from '@/app/hooks';

/** The top bar's badge (Connected / Disconnected) and its Reconnect / Connect button. */
export function ConnectionStatus() {
  const connected = useAppSelector((state) => state.realtime.connected);

  function onClick() {
    const socket = currentSocket();
    if (!socket) return;
    if (connected) socket.disconnect();
    socket.connect();
  }

  return (
    <div className="connection">
      <span className={`badge connection-badge ${connected ? 'badge-success' : 'badge-danger'}`} role="status">
        {connected ? <Wifi size={14} aria-hidden="true" /> : <WifiOff size={14} aria-hidden="true" />}
        {connected ? 'Connected' : 'Disconnected'}
      </span>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <button type="button" className="btn btn-outline btn-sm" onClick={onClick}>
            <RefreshCw size={14} aria-hidden="true" />
            {connected ? 'Reconnect' : 'Connect'}
          </button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content className="tooltip" sideOffset={6}>
            {connected ? 'Restart the real-time connection' : 'Connect to real-time updates'}
            <Tooltip.Arrow className="tooltip-arrow" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </div>
  );
}
