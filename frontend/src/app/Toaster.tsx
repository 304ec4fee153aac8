import * as ToastPrimitive from '@radix-ui/react-toast';
import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { dismissToast, TOAST_DURATION_MS, type Toast } from '@/lib/toast';
import { useAppDispatch, useAppSelector } from './hooks';

const ICONS = {
  default: Info,
  success: CheckCircle2,
  destructive: XCircle,
  warning: AlertTriangle,
} as const;

/**
 * Renders the toasts of the store with Radix Toast (announced to screen readers, swipe to close).
 * The toasts sit outside the router, so a toast's link navigates through `navigate`.
 */
export function Toaster({ navigate }: { navigate: (to: string) => void }) {
  const toasts = useAppSelector((state) => state.toast.items);
  const dispatch = useAppDispatch();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right">
      {toasts.map((toast: Toast) => {
        const Icon = ICONS[toast.variant];
        const link = toast.link;
        return (
          <ToastPrimitive.Root
            key={toast.id}
            className={`toast toast-${toast.variant}`}
            type={toast.variant === 'destructive' ? 'foreground' : 'background'}
            onOpenChange={(open) => {
              if (!open) dispatch(dismissToast(toast.id));
            }}
          >
            <Icon className="toast-icon" size={18} aria-hidden="true" />
            <div className="toast-body">
              <ToastPrimitive.Title className="toast-title">{toast.title}</ToastPrimitive.Title>
              {toast.description && (
                <ToastPrimitive.Description className="toast-description">{toast.description}</ToastPrimitive.Description>
              )}
              {link && (
                <ToastPrimitive.Action altText={link.label} asChild>
                  <a
                    className="toast-link"
                    href={link.to}
                    onClick={(event) => {
                      event.preventDefault();
                      navigate(link.to);
                    }}
                  >
                    {link.label}
                  </a>
                </ToastPrimitive.Action>
              )}
            </div>
            <ToastPrimitive.Close className="icon-button toast-close" aria-label="Dismiss notification">
              <X size={16} aria-hidden="true" />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        );
      })}
      <ToastPrimitive.Viewport className="toast-viewport" label="Notifications ({hotkey})" />
    </ToastPrimitive.Provider>
  );
}
