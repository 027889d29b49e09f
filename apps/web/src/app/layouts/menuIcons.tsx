import type { ComponentType } from 'react';
import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import AuditOutlined from '@ant-design/icons/AuditOutlined';
import BankOutlined from '@ant-design/icons/BankOutlined';
import ClusterOutlined from '@ant-design/icons/ClusterOutlined';
import DashboardOutlined from '@ant-design/icons/DashboardOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import FileTextOutlined from '@ant-design/icons/FileTextOutlined';
import FolderOpenOutlined from '@ant-design/icons/FolderOpenOutlined';
import FolderOutlined from '@ant-design/icons/FolderOutlined';
import MailOutlined from '@ant-design/icons/MailOutlined';
import MessageOutlined from '@ant-design/icons/MessageOutlined';
import SafetyOutlined from '@ant-design/icons/SafetyOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import ShoppingCartOutlined from '@ant-design/icons/ShoppingCartOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';

/** Menu icons by name. A whitelist rather than the whole icon set keeps the bundle small. */
const ICONS: Record<string, ComponentType> = {
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DeleteOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  FolderOutlined,
  MailOutlined,
  MessageOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  TeamOutlined,
  UserOutlined,
};

export function MenuIcon({ name }: { name: string | null }) {
  const Icon = (name && ICONS[name]) || AppstoreOutlined;
  return <Icon />;
}
